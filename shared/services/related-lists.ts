/**
 * The lists a dashboard asks of relations: "objects related to X" (relatedTo) and "objects where I hold
 * a responsibility" (responsibility). Their candidates come from relation items, not from the list
 * indexes: X's relation items (one query of X's partition), or the caller's responsibilities (one query
 * of their partition and one per role held). The candidates are read by key, then filtered, sorted and
 * paged like any list: the cost follows the number of candidates, not the size of the library, and the
 * total is exact.
 */
import type { ListSortKey } from '#shared/data/list-indexes.ts';
import { findNode, findNodes } from '#shared/data/node-repository.ts';
import { findRelationsOf } from '#shared/data/relation-repository.ts';
import { NotFoundError, ValidationError } from '#shared/domain/errors.ts';
import { encodeCursor, type ListCursor } from '#shared/domain/list-cursor.ts';
import type { Node, NodeStatus } from '#shared/domain/node.ts';
import { can } from '#shared/domain/permissions.ts';
import { type ResponsibilityKind, storedName } from '#shared/domain/relations.ts';
import type { Caller } from '#shared/domain/user.ts';
import { responsibilitiesOf } from './relation-service.ts';

export interface CandidateFilter {
  relatedTo?: string;
  relation?: string;
  responsibility?: 'any' | ResponsibilityKind;
}

/** The parameters of a list request, checked and with defaults applied (list-service.ts). */
export interface ListParameters {
  pageSize: number;
  sortKey: ListSortKey;
  order: 'ASC' | 'DESC';
  nodeTypes?: string[];
  nodeStatus?: NodeStatus;
  name?: string;
  modifiedSince?: string;
  draft: boolean;
  cursor?: ListCursor;
  currentPage: number;
  fingerprint: string;
}

/** The ids related to the filter's object (as `relation` narrows them), if it names one. */
async function relatedIds(caller: Caller, relatedTo: string, relation?: string): Promise<string[]> {
  const anchor = await findNode(relatedTo);
  if (!anchor || anchor.deleted || !can(caller, anchor, 'read')) {
    throw new NotFoundError('NODE_NOT_FOUND', `No object with nodeId ${relatedTo}`, [
      { in: 'query', path: '$.relatedTo', rule: 'exists', message: 'names no object you may read' },
    ]);
  }
  const name = relation ? storedName(relation) : undefined;
  const relations = await findRelationsOf(anchor.nodeId, anchor.nodeType);
  return relations
    .filter((r) => r.counted && r.otherType !== 'USER' && (!name || r.name === name))
    .filter(
      (r) => !relation || r.name !== 'responsibility' || r.kinds.includes(relation as ResponsibilityKind),
    )
    .map((r) => r.otherId);
}

/** The ids of the objects the caller holds a responsibility of `kind` for (`any`: of any kind). */
async function heldIds(caller: Caller, kind: string): Promise<string[]> {
  const held = await responsibilitiesOf(caller);
  return [...held]
    .filter(([, kinds]) => kind === 'any' || kinds.has(kind as ResponsibilityKind))
    .map(([id]) => id);
}

/** The ids the filter names, before any other filter: both filters narrow when both are given. */
async function candidateIds(caller: Caller, filter: CandidateFilter): Promise<string[]> {
  const [related, held] = await Promise.all([
    filter.relatedTo ? relatedIds(caller, filter.relatedTo, filter.relation) : undefined,
    filter.responsibility ? heldIds(caller, filter.responsibility) : undefined,
  ]);
  if (related && held) {
    const holds = new Set(held);
    return related.filter((id) => holds.has(id));
  }
  return related ?? held ?? [];
}

const sortValueOf = (node: Node, sortKey: ListSortKey): string => {
  if (sortKey === 'name') return node.name.toLowerCase();
  return sortKey === 'nodeId'
    ? node.nodeId
    : sortKey === 'creationDate'
      ? node.creationDate
      : node.modificationDate;
};

const compare = (a: [string, string], b: [string, string]) =>
  a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0;

/** A cursor's position: [sort value, nodeId]; anything else is a cursor this list did not issue. */
function positionOf(after: string): [string, string] {
  let position: unknown;
  try {
    position = JSON.parse(after);
  } catch {
    position = undefined;
  }
  if (Array.isArray(position) && position.length === 2 && position.every((v) => typeof v === 'string')) {
    return position as [string, string];
  }
  throw new ValidationError([
    {
      in: 'query',
      path: '$.cursor',
      rule: 'cursor',
      message: 'is not a cursor of this list; pass nextCursor unchanged',
    },
  ]);
}

export interface CandidatePage {
  nodes: Node[];
  totalRecords: number;
  nextCursor: string | null;
}

/** One page of the candidates that pass every filter, in the list's order. */
export async function candidatePage(
  caller: Caller,
  filter: CandidateFilter,
  p: ListParameters,
  inScope: (node: Node) => boolean,
): Promise<CandidatePage> {
  if (filter.relation && !filter.relatedTo) {
    throw new ValidationError([
      { in: 'query', path: '$.relation', rule: 'requires', message: 'narrows relatedTo: give relatedTo too' },
    ]);
  }
  const ids = [...new Set(await candidateIds(caller, filter))];
  const copy = p.draft ? 'DRAFT' : 'PUBLISHED';
  const nodes = ids.length > 0 ? await findNodes(ids, { consistent: false, copy }) : [];
  const since = p.modifiedSince ? Date.parse(p.modifiedSince) : undefined;
  const types = p.nodeTypes && new Set(p.nodeTypes);
  const matching = nodes
    .filter((node) => !node.deleted && can(caller, node, 'read') && inScope(node))
    .filter((node) => !types || types.has(node.nodeType))
    .filter((node) => !p.nodeStatus || node.nodeStatus === p.nodeStatus)
    .filter((node) => p.name === undefined || node.name.toLowerCase().includes(p.name))
    .filter((node) => since === undefined || Date.parse(node.modificationDate) >= since)
    .map((node) => ({ node, key: [sortValueOf(node, p.sortKey), node.nodeId] as [string, string] }))
    .sort((a, b) => (p.order === 'ASC' ? compare(a.key, b.key) : compare(b.key, a.key)));
  let start = (p.currentPage - 1) * p.pageSize;
  if (p.cursor) {
    const after = positionOf(p.cursor.after);
    const next = matching.findIndex((m) =>
      p.order === 'ASC' ? compare(m.key, after) > 0 : compare(m.key, after) < 0,
    );
    start = next < 0 ? matching.length : next;
  }
  const page = matching.slice(start, start + p.pageSize);
  const last = page.at(-1);
  const more = start + p.pageSize < matching.length;
  return {
    nodes: page.map((m) => m.node),
    totalRecords: matching.length,
    nextCursor:
      more && last
        ? encodeCursor({ after: JSON.stringify(last.key), page: p.currentPage + 1 }, p.fingerprint)
        : null,
  };
}
