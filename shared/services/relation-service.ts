/**
 * Relations between objects, RACI responsibilities and the roles users hold: linked, unlinked and listed
 * through /items/{nodeId}/relations, counted for lists (relation-repository.ts says how counts stay exact).
 *
 * Permissions: linking and unlinking need edit on the object the relation goes out from and read on the
 * other end (404 when the caller may not read either); listing needs read, and shows only ends the caller
 * may read. Counts count every live related object, readable by the caller or not.
 */
import { failedConditions } from '#shared/data/conditional-writes.ts';
import type { Item } from '#shared/data/entity.ts';
import { itemAt, type PartitionQuery, positionOf, queryPage } from '#shared/data/keyed-pages.ts';
import { findNode, findNodes } from '#shared/data/node-repository.ts';
import {
  asRead,
  countChange,
  countUpdateItems,
  endIsLive,
  findRelation,
  findRelationsOf,
  keyOf,
  linkKeys,
  mirrorOf,
  type RelationCountDeltas,
  readRelationCountsOf,
  relationItem,
  relationOf,
  type StoredRelation,
  tableName,
  transact,
} from '#shared/data/relation-repository.ts';
import { findUser } from '#shared/data/user-repository.ts';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '#shared/domain/errors.ts';
import type { ListPage } from '#shared/domain/list-element.ts';
import { type Node, timestamp } from '#shared/domain/node.ts';
import { can } from '#shared/domain/permissions.ts';
import {
  isResponsibility,
  noRelationCounts,
  noResponsibilities,
  RELATION_NAMES,
  RESPONSIBILITY,
  RESPONSIBILITY_KINDS,
  type RelationSummary,
  type RelationView,
  type Responsibilities,
  type ResponsibilityKind,
  relationDefinition,
  storedName,
  USER_END,
} from '#shared/domain/relations.ts';
import { type Caller, callerOf, type User } from '#shared/domain/user.ts';
import { type CursorRequest, cursorPage } from './paging.ts';

const ATTEMPTS = 5;

const pathError = (path: string, rule: string, message: string) =>
  new BadRequestError('RELATION_NOT_ALLOWED', message, [{ in: 'path', path, rule, message }]);
const nodeNotFound = (nodeId: string) =>
  new NotFoundError('NODE_NOT_FOUND', `No object with nodeId ${nodeId}`);

/** The object a relation goes out from, readable, and writable when `write`. */
async function sourceNode(caller: Caller, nodeId: string, write: boolean): Promise<Node> {
  const node = await findNode(nodeId);
  if (!node || node.deleted || !can(caller, node, 'read')) throw nodeNotFound(nodeId);
  if (write && !can(caller, node, 'edit'))
    throw new ForbiddenError('Linking objects needs the editor role here');
  return node;
}

interface End {
  id: string;
  type: string;
  name: string | null;
  hasRelations?: boolean;
}

/**
 * The other end: a user where the relation takes users and one has that id, else a readable object. A new
 * link takes only an active user who can read the object linked from (`source`); any other user is answered
 * as an unknown one, so a link tells an editor nothing of users beyond those.
 */
async function targetEnd(
  caller: Caller,
  relation: string,
  targetId: string,
  { live, source }: { live: boolean; source?: Node },
): Promise<End> {
  const takesUsers = relationDefinition(relation)?.to.includes(USER_END) === true;
  if (takesUsers) {
    const user = await findUser(targetId);
    const linkable = (found: User) =>
      !source || (found.status === 'ACTIVE' && can(callerOf(found), source, 'read'));
    if (user && linkable(user)) return { id: user.principalId, type: USER_END, name: user.name };
  }
  const node = await findNode(targetId);
  if (!node || (live && node.deleted) || !can(caller, node, 'read')) {
    if (!takesUsers) throw new NotFoundError('NODE_NOT_FOUND', `No object with id ${targetId}`);
    throw new NotFoundError(
      'USER_NOT_FOUND',
      `No object with id ${targetId}, nor an active user with it who can read ${source?.nodeId ?? 'the object'}`,
    );
  }
  return { id: node.nodeId, type: node.nodeType, name: node.name, hasRelations: node.hasRelations === true };
}

function checkedRelation(relation: string, source: Node, nodeId: string, targetId: string) {
  const definition = relationDefinition(relation);
  if (!definition) {
    throw pathError('$.relation', 'enum', `must be one of ${RELATION_NAMES.join(', ')}`);
  }
  if (!definition.from.includes(source.nodeType)) {
    throw pathError(
      '$.relation',
      'relation_catalogue',
      `${relation} goes out from ${definition.from.join(', ')}, not from a ${source.nodeType}`,
    );
  }
  if (nodeId === targetId) throw pathError('$.targetId', 'not_self', 'an object is not related to itself');
  return definition;
}

function checkedTarget(relation: string, target: End): void {
  const definition = relationDefinition(relation);
  if (definition && !definition.to.includes(target.type)) {
    throw pathError(
      '$.targetId',
      'relation_catalogue',
      `${relation} goes to ${definition.to.map((t) => (t === USER_END ? 'a user' : t)).join(', ')}, not to a ${target.type}`,
    );
  }
}

async function readPair(source: Node, name: string, target: End) {
  const { outKey, inKey } = linkKeys({ id: source.nodeId, type: source.nodeType }, name, target);
  const [out, into] = await Promise.all([findRelation(outKey), findRelation(inKey)]);
  const shape = {
    selfId: source.nodeId,
    selfType: source.nodeType,
    direction: 'out' as const,
    name,
    otherId: target.id,
    otherType: target.type,
  };
  return { out, into, shape };
}

/** Whether a failed transaction failed on the ends' live checks (indexes 2 and 3). */
const endGone = (error: unknown) => failedConditions(error).some((i) => i === 2 || i === 3);

/**
 * Links `nodeId` to `targetId` under `relation`. Linking again what is linked changes nothing. The two
 * items, the ends' live checks and the count updates commit together; a race with another change of the
 * same link is read again and retried.
 */
export async function linkRelation(
  caller: Caller,
  nodeId: string,
  relation: string,
  targetId: string,
): Promise<RelationView> {
  const source = await sourceNode(caller, nodeId, true);
  checkedRelation(relation, source, nodeId, targetId);
  const target = await targetEnd(caller, relation, targetId, { live: true, source });
  checkedTarget(relation, target);
  const name = storedName(relation);
  for (let attempt = 1; ; attempt++) {
    const { out, into, shape } = await readPair(source, name, target);
    const kinds = out?.kinds ?? [];
    if (out && (!isResponsibility(relation) || kinds.includes(relation)))
      return viewOf(out, target, relation);
    const nextKinds = isResponsibility(relation) ? [...kinds, relation] : [];
    const at = timestamp();
    const nextOut: StoredRelation = {
      ...shape,
      kinds: nextKinds,
      counted: true,
      revision: (out?.revision ?? 0) + 1,
      createdAt: out?.createdAt ?? at,
      createdByName: out?.createdByName ?? caller.principal.name,
      changedBy: caller.principal.principalId,
      changedAt: at,
    };
    const nextIn: StoredRelation = { ...mirrorOf(nextOut), revision: (into?.revision ?? 0) + 1 };
    const deltas: RelationCountDeltas = new Map();
    countChange(deltas, out, nextOut);
    countChange(deltas, into, nextIn);
    const TableName = tableName();
    try {
      await transact([
        { Put: { TableName, Item: relationItem(nextOut), ...asRead(out) } },
        { Put: { TableName, Item: relationItem(nextIn), ...asRead(into) } },
        endIsLive(
          { id: source.nodeId, type: source.nodeType, hasRelations: source.hasRelations === true },
          TableName,
        ),
        endIsLive(target, TableName),
        ...countUpdateItems(deltas, TableName),
      ]);
      return viewOf(nextOut, target, relation);
    } catch (error) {
      const failed = failedConditions(error);
      if (failed.length === 0) throw error;
      if (endGone(error)) throw nodeNotFound(failed.includes(2) ? nodeId : targetId);
      // The link changed since it was read: read it again.
      if (attempt === ATTEMPTS) throw raced();
    }
  }
}

const raced = () =>
  new ConflictError(
    'WRITE_CONFLICT',
    'The relation was changed while this request was being carried out; retry it',
  );

/** Removes the relation (for a responsibility, that one kind). 404 when it is not there. */
export async function unlinkRelation(
  caller: Caller,
  nodeId: string,
  relation: string,
  targetId: string,
): Promise<void> {
  const noSuchLink = () =>
    new NotFoundError('RELATION_NOT_FOUND', `${nodeId} has no ${relation} relation to ${targetId}`);
  const source = await sourceNode(caller, nodeId, true);
  checkedRelation(relation, source, nodeId, targetId);
  const target = await targetEnd(caller, relation, targetId, { live: false }).catch((error: unknown) => {
    // A user never linked here and no user at all are the same to the caller: no such link.
    if (error instanceof NotFoundError && error.code === 'USER_NOT_FOUND') throw noSuchLink();
    throw error;
  });
  const name = storedName(relation);
  for (let attempt = 1; ; attempt++) {
    const { out, into } = await readPair(source, name, target);
    if (!out || (isResponsibility(relation) && !out.kinds.includes(relation))) throw noSuchLink();
    const TableName = tableName();
    const remaining = out.kinds.filter((k) => k !== relation);
    const items: Record<string, unknown>[] = [];
    if (isResponsibility(relation) && remaining.length > 0) {
      const [changedBy, changedAt] = [caller.principal.principalId, timestamp()];
      const nextOut = { ...out, kinds: remaining, revision: out.revision + 1, changedBy, changedAt };
      items.push({ Put: { TableName, Item: relationItem(nextOut), ...asRead(out) } });
      if (into) {
        const nextIn = { ...into, kinds: remaining, revision: into.revision + 1, changedBy, changedAt };
        items.push({ Put: { TableName, Item: relationItem(nextIn), ...asRead(into) } });
      }
    } else {
      const deltas: RelationCountDeltas = new Map();
      countChange(deltas, out, null);
      countChange(deltas, into, null);
      items.push({ Delete: { TableName, Key: keyOf(out), ...asRead(out) } });
      if (into) items.push({ Delete: { TableName, Key: keyOf(into), ...asRead(into) } });
      items.push(...countUpdateItems(deltas, TableName));
    }
    try {
      await transact(items);
      return;
    } catch (error) {
      if (failedConditions(error).length === 0) throw error;
      if (attempt === ATTEMPTS) throw raced();
    }
  }
}

/** The view of `relation` (for a responsibility: that kind) on a stored item. */
const viewOf = (r: StoredRelation, target: End, relation: string) =>
  viewsOf(r, target.name).find((view) => view.relation === relation) as RelationView;

/** The API's view of one stored item: one per kind for a responsibility. */
function viewsOf(r: StoredRelation, otherName: string | null): RelationView[] {
  const base = {
    direction: r.direction,
    other: { id: r.otherId, nodeType: r.otherType, name: otherName },
    createdAt: r.createdAt,
    createdByName: r.createdByName,
  };
  if (r.name !== RESPONSIBILITY) return [{ relation: r.name, ...base }];
  // One entry per kind, in the kinds' fixed order (not the order they were linked in): a cursor inside the
  // link resumes after a kind, which stays where it is when others are linked or unlinked meanwhile.
  return RESPONSIBILITY_KINDS.filter((kind) => r.kinds.includes(kind)).map((kind) => ({
    relation: kind,
    kinds: [...r.kinds],
    ...base,
  }));
}

/** Where a responsibility kind sorts within its link's entries (kindRank + 1: just after it). */
const kindRank = (relation: string) => (RESPONSIBILITY_KINDS as readonly string[]).indexOf(relation);

export interface RelationQuery extends CursorRequest {
  direction?: 'out' | 'in' | undefined;
  relation?: string | undefined;
}

/**
 * An object's relations with live ends, in both directions (or one), a page at a time, in key order
 * (direction, relation, other end). Ends the caller may not read are left out, so a page may be short.
 */
export async function relationsOf(
  caller: Caller,
  nodeId: string,
  query: RelationQuery,
): Promise<ListPage<RelationView>> {
  const node = await sourceNode(caller, nodeId, false);
  if (query.relation && !relationDefinition(query.relation)) {
    throw new BadRequestError('INVALID_QUERY', `relation must be one of ${RELATION_NAMES.join(', ')}`, [
      {
        in: 'query',
        path: '$.relation',
        rule: 'enum',
        message: `must be one of ${RELATION_NAMES.join(', ')}`,
      },
    ]);
  }
  const name = query.relation ? storedName(query.relation) : undefined;
  const prefix = query.direction ? `${query.direction.toUpperCase()}#${name ? `${name}#` : ''}` : '';
  const partitionQuery: PartitionQuery = {
    partition: `NODE#${node.nodeId}`,
    sortKeyPrefix: `REL#${prefix}`,
    filter: {
      expression: name ? 'counted = :true AND #name = :name' : 'counted = :true',
      names: name ? { '#name': 'name' } : {},
      values: name ? { ':true': true, ':name': name } : { ':true': true },
    },
  };
  /** Each item's views the caller may see, each with the position just after it. */
  const placed = async (items: Item[]) => {
    const stored = items.map(relationOf);
    const ends = await namesOf(caller, stored);
    return stored.flatMap((r, i) => {
      const end = ends.get(r.otherId);
      if (end === undefined || !r.counted || (name && r.name !== name)) return [];
      const views = viewsOf(r, end).filter((v) => !query.relation || v.relation === query.relation);
      const itemPosition = positionOf(items[i] as Item, partitionQuery);
      return views.map((view, given) => ({
        view,
        position:
          given + 1 === views.length ? itemPosition : withinItem(itemPosition, kindRank(view.relation) + 1),
      }));
    });
  };
  // A link of several responsibility kinds is one entry per kind: a page may stop inside it, and the next
  // then starts with that item's remaining kinds.
  return cursorPage(
    `relations ${nodeId} ${query.direction ?? ''} ${query.relation ?? ''}`,
    'relation',
    query,
    async (limit, after, readSize) => {
      const resume = after === undefined ? undefined : resumePosition(after);
      const started = resume?.given
        ? await itemAt(partitionQuery, resume.item).then(async (item) =>
            item
              ? (await placed([item])).filter((entry) => kindRank(entry.view.relation) >= (resume.given ?? 0))
              : [],
          )
        : [];
      // One item more than the page needs: whether more follow is then known (a total that only grows).
      const page =
        started.length <= limit
          ? await queryPage(
              partitionQuery,
              readSize - started.length + 1,
              resume ? { after: resume.item } : {},
            )
          : undefined;
      const all = [...started, ...(page ? await placed(page.items) : [])];
      const taken = all.slice(0, limit);
      const afterLast = taken.at(-1)?.position;
      // page.next may be a link to an end the caller may not read: only reading on starts there.
      const next = all.length > limit || !page ? afterLast : page.next;
      return {
        results: taken.map((entry) => entry.view),
        ...(next ? { next } : {}),
        ...(afterLast ? { afterLast } : {}),
      };
    },
  );
}

/** The position inside an item's entries: before its kinds ranked `given` (kindRank) and later. */
const withinItem = (item: string, given: number) => JSON.stringify({ item, given });

/** A position as relationsOf gives them: after an item, or inside one (a cursor's, so checked). */
function resumePosition(position: string): { item: string; given?: number } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(position);
  } catch {
    parsed = undefined;
  }
  const inside = parsed as { item?: unknown; given?: unknown } | undefined;
  if (
    inside &&
    typeof inside === 'object' &&
    Object.keys(inside).length === 2 &&
    typeof inside.item === 'string' &&
    Number.isSafeInteger(inside.given) &&
    (inside.given as number) > 0 &&
    (inside.given as number) < RESPONSIBILITY_KINDS.length
  ) {
    return { item: inside.item, given: inside.given as number };
  }
  // An item's own position (checked as the query starts from it).
  return { item: position };
}

/** Names of the other ends the caller may read (users: their display names). */
async function namesOf(caller: Caller, stored: StoredRelation[]): Promise<Map<string, string | null>> {
  const nodeIds = stored.filter((r) => r.otherType !== USER_END).map((r) => r.otherId);
  const userIds = [...new Set(stored.filter((r) => r.otherType === USER_END).map((r) => r.otherId))];
  const [nodes, users] = await Promise.all([
    nodeIds.length > 0 ? findNodes([...new Set(nodeIds)], { consistent: false }) : [],
    Promise.all(userIds.map((id) => findUser(id))),
  ]);
  const names = new Map<string, string | null>();
  for (const node of nodes) if (!node.deleted && can(caller, node, 'read')) names.set(node.nodeId, node.name);
  for (const user of users) if (user) names.set(user.principalId, user.name);
  return names;
}

/**
 * The caller's responsibilities: on each object, the kinds they hold directly or through a live role
 * they hold. One query of the caller's own partition, then one per role held, in parallel.
 */
export function responsibilitiesOf(caller: Caller): Promise<Map<string, Set<ResponsibilityKind>>> {
  return responsibilitiesOfPrincipal(caller.principal.principalId);
}

/** responsibilitiesOf by the principal alone: a list reads them beside the session check. */
export async function responsibilitiesOfPrincipal(
  principalId: string,
): Promise<Map<string, Set<ResponsibilityKind>>> {
  const mine = await findRelationsOf(principalId, USER_END, 'IN#');
  const roles = mine.filter((r) => r.name === 'heldBy' && r.counted).map((r) => r.otherId);
  const throughRoles = await Promise.all(
    roles.map((roleId) => findRelationsOf(roleId, 'ROLE', `IN#${RESPONSIBILITY}#`)),
  );
  const held = new Map<string, Set<ResponsibilityKind>>();
  for (const r of [...mine, ...throughRoles.flat()]) {
    if (r.name !== RESPONSIBILITY || !r.counted) continue;
    const kinds = held.get(r.otherId) ?? new Set<ResponsibilityKind>();
    for (const kind of r.kinds) kinds.add(kind);
    held.set(r.otherId, kinds);
  }
  return held;
}

export function responsibilitiesOn(
  held: Map<string, Set<ResponsibilityKind>>,
  nodeId: string,
): Responsibilities {
  const flags = noResponsibilities();
  for (const kind of held.get(nodeId) ?? []) flags[kind] = true;
  return flags;
}

/** The summary a per-type retrieve shows: the kept counts and the caller's responsibilities. */
export async function relationSummaryOf(
  caller: Caller,
  node: Node,
  draft: boolean,
): Promise<RelationSummary> {
  const [counts, held] = await Promise.all([
    readRelationCountsOf([node], draft ? 'DRAFT' : 'PUBLISHED'),
    responsibilitiesOf(caller),
  ]);
  return {
    ...(counts.get(node.nodeId) ?? noRelationCounts()),
    responsibilities: responsibilitiesOn(held, node.nodeId),
  };
}
