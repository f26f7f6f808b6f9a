/**
 * Turns the table's stream (NEW_AND_OLD_IMAGES) into the change feed. The stream holds every committed
 * write, once, in order per item; this records the ones a sync client cares about (objects, edges,
 * relations, grants) and skips bookkeeping (counts, links, versions, sessions, the feed itself).
 *
 * Each change is stamped with the moment it is recorded and must land within the record deadline of its
 * stamp: an attempt that takes longer is stamped again and written again (the first may land too: the
 * feed is at least once, and `changeId` names the repeat). The feed reads only changes stamped more than
 * CHANGES_SETTLE_MS ago, and the deadline is a third of that window whatever it is set to, so a change can
 * never appear behind a reader's cursor. (A fixed deadline longer than a shortened window let changes
 * land behind readers.)
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { config } from '#shared/config/index.ts';
import {
  changePosition,
  type PositionedChange,
  putChanges,
  type StoredChange,
} from '#shared/data/change-repository.ts';
import { type BatchRef, committedAmong, stagedBy } from '#shared/data/diagram-batches.ts';
import { DIAGRAM_BATCH_PREFIX } from '#shared/data/keys.ts';
import { findNodes } from '#shared/data/node-repository.ts';
import { CHANGE_RETENTION_DAYS, type ChangeKind } from '#shared/domain/changes.ts';
import { RESPONSIBILITY, USER_END } from '#shared/domain/relations.ts';

/** DynamoDB's BatchWriteItem limit. */
const CHANGES_PER_WRITE = 25;
/** Rounds of writing what is left before the batch fails (and the stream hands it over again). */
const RECORD_ROUNDS = 5;

/** The longest one write of changes may take: at most 3 s, and a third of the settle window. */
export const recordDeadlineMs = (settleMs = config().changesSettleMs): number =>
  Math.min(3_000, Math.floor(settleMs / 3));

type Image = Record<string, unknown>;

export interface ChangeStreamRecord {
  eventID?: string;
  eventName?: 'INSERT' | 'MODIFY' | 'REMOVE';
  dynamodb?: {
    Keys?: Record<string, AttributeValue>;
    NewImage?: Record<string, AttributeValue>;
    OldImage?: Record<string, AttributeValue>;
  };
}

/** A change before it is placed and stamped. */
type Draft = Omit<
  StoredChange,
  'recordedAt' | 'ancestorIds' | 'previousAncestorIds' | 'changeId' | 'target'
> & {
  ancestorIds?: string[];
  previousAncestorIds?: string[] | null;
  /** A relation's other end, by id: placed with the change (a user, or an object gone, stays unplaced). */
  targetId?: string;
};

const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/**
 * The relation a change is about, as the API names it: a responsibility link is stored once for all its
 * kinds, and each link or unlink adds or removes one of them (`responsible`, `accountable`, …).
 */
function relationNamed(stored: string, before: Image | undefined, after: Image | undefined): string {
  if (stored !== RESPONSIBILITY) return stored;
  const kindsOf = (image: Image | undefined) =>
    new Set(Array.isArray(image?.kinds) ? image.kinds.map(String) : []);
  const [was, is] = [kindsOf(before), kindsOf(after)];
  const changed = [...was, ...is].filter((kind) => was.has(kind) !== is.has(kind));
  return changed.length > 0 ? [...new Set(changed)].join(',') : stored;
}

const blank = {
  nodeType: null,
  nodeVersionId: null,
  version: null,
  nodeStatus: null,
  parentId: null,
  deleted: false,
  by: null,
  at: null,
  detail: null,
  principalId: null,
  role: null,
} satisfies Partial<Draft>;

/**
 * Whether an image of an item is one readers see. An item a diagram batch wrote keeps its batchId and is
 * seen once the batch has committed; the commit itself announces what the batch staged (batchAnnounced),
 * so the staging write is never news.
 */
type Visibility = (image: Image | undefined) => boolean;

/** What happened to an object's working copy, or nothing a client needs to know. */
function nodeKindOf(
  before: Image | undefined,
  after: Image | undefined,
  visible: Visibility,
): ChangeKind | undefined {
  if (!visible(after)) return visible(before) && !after ? 'PURGED' : undefined;
  if (!visible(before)) return 'CREATED';
  const [was, is] = [before as Image, after as Image];
  if (!was.deleted && is.deleted) return 'DELETED';
  if (was.deleted && !is.deleted) return 'RESTORED';
  if (is.deleted) return undefined;
  if (was.parentId !== is.parentId) return 'MOVED';
  if (was.nodeVersionId === is.nodeVersionId) return undefined; // bookkeeping: marks, leases
  return is.nodeStatus === 'PUBLISHED' && was.nodeStatus !== 'PUBLISHED' ? 'PUBLISHED' : 'UPDATED';
}

function nodeChange(
  before: Image | undefined,
  after: Image | undefined,
  visible: Visibility,
): Draft | undefined {
  const kind = nodeKindOf(before, after, visible);
  if (!kind) return undefined;
  const node = (after ?? before) as Image;
  const ancestors = (image: Image | undefined) => (image?.ancestorIds as string[] | undefined) ?? [];
  return {
    ...blank,
    kind,
    nodeId: String(node.nodeId),
    nodeType: str(node.nodeType),
    nodeVersionId: str(node.nodeVersionId),
    version: str(node.version),
    nodeStatus: str(node.nodeStatus),
    parentId: str(node.parentId),
    deleted: kind === 'PURGED' || node.deleted === true,
    by: kind === 'PURGED' ? null : str(node.modifiedBy),
    at: kind === 'PURGED' ? null : str(node.modificationDate),
    ancestorIds: ancestors(node),
    previousAncestorIds: kind === 'MOVED' ? ancestors(before) : null,
  };
}

/** A stream record's keys and images, unmarshalled. */
interface Write {
  eventID: string;
  pk: string;
  sk: string;
  before: Image | undefined;
  after: Image | undefined;
}

function writeOf(record: ChangeStreamRecord): Write {
  const keys = record.dynamodb?.Keys ? unmarshall(record.dynamodb.Keys) : {};
  return {
    eventID: String(record.eventID),
    pk: String(keys.PK ?? ''),
    sk: String(keys.SK ?? ''),
    before: record.dynamodb?.OldImage ? unmarshall(record.dynamodb.OldImage) : undefined,
    after: record.dynamodb?.NewImage ? unmarshall(record.dynamodb.NewImage) : undefined,
  };
}

/** The batch that wrote an object's working copy or an edge, if one did (an edge's process is its partition). */
function batchOf(write: Pick<Write, 'pk' | 'sk'>, image: Image | undefined): BatchRef | undefined {
  if (typeof image?.batchId !== 'string') return undefined;
  const processId = write.sk === 'DRAFT' ? str(image.parentId) : write.pk.slice('NODE#'.length);
  return processId ? { processId, batchId: image.batchId } : undefined;
}

/** The change an item's write makes, if a client needs to know; edges, relations and grants are placed later. */
function changeOf(write: Write, committed: (ref: BatchRef) => boolean): Draft | undefined {
  const { pk, sk, before, after } = write;
  if (!pk.startsWith('NODE#')) return undefined;
  const nodeId = pk.slice('NODE#'.length);
  const item = (after ?? before) as Image;
  const visible: Visibility = (image) => {
    if (image === undefined) return false;
    const batch = batchOf(write, image);
    // A staging write (a batch's item written for the first time) is announced by the batch's commit.
    // An object in the trash was visible (a staged one is never deleted), though a purge of its process
    // may already have removed the batch's record.
    return !batch || (before !== undefined && (committed(batch) || image.deleted === true));
  };
  if (sk === 'DRAFT') return nodeChange(before, after, visible);
  if (sk.startsWith('EDGE#')) {
    const [was, is] = [visible(before), visible(after)];
    if (!was && !is) return undefined;
    return {
      ...blank,
      kind: !was ? 'EDGE_ADDED' : !is ? 'EDGE_REMOVED' : 'EDGE_CHANGED',
      nodeId,
      detail: sk.slice('EDGE#'.length),
      // Who added (or restored) it; a removal leaves no item to say who (as an unlink). Edges written
      // before they kept it say nothing either.
      ...(is ? { by: str(after?.changedBy), at: str(after?.changedAt) } : {}),
    };
  }
  if (sk.startsWith('REL#OUT#')) {
    // A flip of `counted` (the other end deleted or restored) is bookkeeping; a change of a
    // responsibility link's kinds is news.
    const kindsChanged =
      before && after && JSON.stringify(before.kinds ?? []) !== JSON.stringify(after.kinds ?? []);
    if (before && after && !kindsChanged) return undefined;
    const [, , name, otherId] = sk.split('#');
    return {
      ...blank,
      kind: kindsChanged ? 'RELATION_CHANGED' : after ? 'RELATION_LINKED' : 'RELATION_UNLINKED',
      nodeId,
      // Who linked it, or changed its kinds; an unlink leaves no item to say who (as a revoke).
      by: str(after?.changedBy),
      at: str(after?.changedAt ?? after?.createdAt),
      detail: `${relationNamed(String(name), before, after)}:${otherId}`,
      // Another object is placed, so readers and endpoints who may not see it are not told of the link;
      // a user end is not an object.
      ...((after ?? before)?.otherType === USER_END ? {} : { targetId: otherId }),
    };
  }
  if (sk.startsWith('GRANT#')) {
    // The same role saved again (a sync client's repeated PUT) changes nothing a reader can see.
    if (before && after && before.role === after.role) return undefined;
    return {
      ...blank,
      kind: !before ? 'GRANTED' : !after ? 'REVOKED' : 'GRANT_CHANGED',
      nodeId,
      principalId: str(item.principalId),
      // A revoke names the role it took away.
      role: str((after ?? before)?.role),
      // Where its node is, as the grant keeps it: a revoke by a purge is placed though the node is gone.
      ...(Array.isArray(item.nodeAncestorIds)
        ? { nodeType: str(item.nodeType), ancestorIds: item.nodeAncestorIds.map(String) }
        : {}),
      by: str(after?.grantedBy),
      at: str(after?.grantedAt),
    };
  }
  return undefined;
}

/** A draft placed: where its object is, and where a relation's other end is. */
type Placed = Draft & { ancestorIds: string[]; target?: StoredChange['target'] };

/**
 * Edges, relations and grants are placed where their node is, and relations where their other end is
 * (one BatchGet for the whole batch).
 */
async function placed(drafts: Draft[]): Promise<Placed[]> {
  const unplaced = [
    ...new Set(
      drafts.flatMap((d) => [...(d.ancestorIds ? [] : [d.nodeId]), ...(d.targetId ? [d.targetId] : [])]),
    ),
  ];
  const nodes = unplaced.length > 0 ? await findNodes(unplaced) : [];
  const byId = new Map(nodes.map((node) => [node.nodeId, node]));
  return drafts.map(({ targetId, ...draft }) => {
    const target = targetId ? byId.get(targetId) : undefined;
    const withTarget = targetId
      ? { target: target ? { nodeId: target.nodeId, ancestorIds: target.ancestorIds ?? [] } : null }
      : {};
    if (draft.ancestorIds) return { ...draft, ancestorIds: draft.ancestorIds, ...withTarget };
    const node = byId.get(draft.nodeId);
    return {
      ...draft,
      nodeType: draft.nodeType ?? node?.nodeType ?? null,
      ancestorIds: node?.ancestorIds ?? [],
      ...withTarget,
    };
  });
}

/**
 * Monotonic stamps in microseconds: changes recorded in the same millisecond still sort in record order,
 * and a thousand of them fit in it. (Stamps of whole milliseconds ran ahead of the clock by one per
 * change: a batch of 2,000 was visible 2 s late, and the next batch of an object, on another instance,
 * could sort before it.)
 */
let lastStampMicros = 0;
function stampMicros(): number {
  lastStampMicros = Math.max(Date.now() * 1000, lastStampMicros + 1);
  return lastStampMicros;
}

/** Changes, stamped now in this order (their stamps keep the stream's order). */
const stamped = (pending: { draft: Placed; changeId: string }[]): PositionedChange[] =>
  pending.map(({ draft, changeId }) => {
    const micros = stampMicros();
    return {
      change: {
        ...draft,
        changeId,
        recordedAt: new Date(Math.floor(micros / 1000)).toISOString(),
        ancestorIds: draft.ancestorIds ?? [],
        previousAncestorIds: draft.previousAncestorIds ?? null,
      },
      position: changePosition(micros, changeId),
    };
  });

const isDeadline = (error: unknown) =>
  (error as Error).name === 'AbortError' || (error as Error).name === 'TimeoutError';

/**
 * Records changes 25 to a write (BatchWriteItem), chunks at once. What a write leaves unprocessed, or a
 * chunk that misses the deadline, is stamped anew and written again; after a few rounds the batch fails
 * and the stream hands it over again. A change written twice keeps its changeId.
 */
async function record(pending: { draft: Placed; changeId: string }[]): Promise<void> {
  const deadline = recordDeadlineMs();
  let left = pending;
  for (let round = 1; left.length > 0; round++) {
    if (round > RECORD_ROUNDS)
      throw new Error(`${left.length} changes were not recorded after ${RECORD_ROUNDS} rounds`);
    const changes = stamped(left);
    const chunks = Array.from({ length: Math.ceil(changes.length / CHANGES_PER_WRITE) }, (_, k) =>
      changes.slice(k * CHANGES_PER_WRITE, (k + 1) * CHANGES_PER_WRITE),
    );
    const unrecorded = await Promise.all(
      chunks.map(async (chunk) => {
        try {
          return await putChanges(chunk, CHANGE_RETENTION_DAYS, AbortSignal.timeout(deadline));
        } catch (error) {
          if (isDeadline(error)) return chunk;
          throw error;
        }
      }),
    );
    const again = new Set(unrecorded.flat().map(({ change }) => change.changeId));
    left = left.filter(({ changeId }) => again.has(changeId));
    if (left.length > 0) await new Promise((resolve) => setTimeout(resolve, 50 * 2 ** round));
  }
}

/** The batch a write commits (its record moving to `committed`), if it does. */
function committing(write: Write): BatchRef | undefined {
  if (!write.pk.startsWith('NODE#') || !write.sk.startsWith(DIAGRAM_BATCH_PREFIX)) return undefined;
  if (write.before?.state === 'committed' || write.after?.state !== 'committed') return undefined;
  return { processId: write.pk.slice('NODE#'.length), batchId: write.sk.slice(DIAGRAM_BATCH_PREFIX.length) };
}

/**
 * What a batch's commit makes visible at once: each node it staged (CREATED, as it reads now) and each
 * edge (EDGE_ADDED). Their changeIds are the commit's, followed by the node's or edge's id, so a batch
 * handed over again records the same changes again.
 */
async function batchAnnounced(
  write: Write,
  { processId, batchId }: BatchRef,
): Promise<{ draft: Draft; changeId: string }[]> {
  const { nodeIds, edges: staged } = await stagedBy(processId, batchId);
  const nodes = nodeIds.length > 0 ? await findNodes(nodeIds) : [];
  const created = nodes.flatMap((node) => {
    const draft = nodeChange(undefined, node as unknown as Image, (image) => image !== undefined);
    return draft ? [{ draft, changeId: `${write.eventID}:${node.nodeId}` }] : [];
  });
  const edges = staged.map((edge) => ({
    draft: {
      ...blank,
      kind: 'EDGE_ADDED' as const,
      nodeId: processId,
      detail: edge.edgeId,
      by: edge.changedBy ?? null,
      at: edge.changedAt ?? null,
    },
    changeId: `${write.eventID}:${edge.edgeId}`,
  }));
  return [...created, ...edges];
}

/**
 * Records the changes of a batch of stream records, in order. A failure fails the batch, which the
 * stream hands over again: changes recorded before the failure are recorded again (same changeId).
 */
export async function recordChanges(records: ChangeStreamRecord[]): Promise<number> {
  const writes = records.map(writeOf);
  // Later writes of a batch's items are news only if it committed: one read for all the batches named.
  const committed = await committedAmong(
    writes.flatMap((write) => (write.before ? (batchOf(write, write.before) ?? []) : [])),
  );
  const drafts: { draft: Draft; changeId: string }[] = [];
  for (const write of writes) {
    const batch = committing(write);
    if (batch) {
      drafts.push(...(await batchAnnounced(write, batch)));
      continue;
    }
    const draft = changeOf(write, committed);
    if (draft) drafts.push({ draft, changeId: write.eventID });
  }
  const placedDrafts = await placed(drafts.map((d) => d.draft));
  await record(
    placedDrafts.map((draft, i) => ({ draft, changeId: (drafts[i] as { changeId: string }).changeId })),
  );
  return placedDrafts.length;
}
