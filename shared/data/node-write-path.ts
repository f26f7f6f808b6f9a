/**
 * The one write path for nodes. Every mutation (create, update, soft delete, and later move, restore,
 * publish, add tasks) is expressed as NodeWrites and committed here, so a change record for sync
 * clients can later join the same transaction as the write it describes.
 */
import {
  DeleteCommand,
  PutCommand,
  TransactWriteCommand,
  type TransactWriteCommandInput,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { dynamoDb } from '#shared/clients/dynamodb.ts';
import { currentInvocation } from '#shared/clients/invocation.ts';
import { config } from '#shared/config/index.ts';
import type { MovedPorts } from '#shared/domain/edge-ports.ts';
import { ConflictError } from '#shared/domain/errors.ts';
import type { Node, NodeStatus } from '#shared/domain/node.ts';
import type { StoredEdge } from '#shared/domain/process-diagram.ts';
import { UPLOAD_RETENTION } from '#shared/domain/uploads/upload.ts';
import { conditionally, writtenIfHeld } from './conditional-writes.ts';
import {
  childLinks,
  nodes,
  nodeVersions,
  type TrashEntry,
  trashEntries,
  trashedChildren,
} from './entities/nodes.ts';
import { diagramBatches, edges } from './entities/process-diagrams.ts';
import { claimItem } from './idempotency-repository.ts';
import {
  childLinkKey,
  countsKey,
  DELETE_LEASE_ATTRIBUTE,
  diagramBatchKey,
  edgeKey,
  nodeKey,
  PUBLISHED_EDGES,
  PUBLISHED_TASK_IDS,
  PURGE_STARTED_ATTRIBUTE,
  trashEntryKey,
  trashedChildKey,
  trashedEdgeKey,
  trashPointerKey,
  uploadItemKey,
} from './keys.ts';
import { COUNT_SHARDS, type CountDeltas, countNode, countUpdates, pickShard } from './node-counts.ts';
import { findNode } from './node-repository.ts';

export type NodeWrite =
  /** A new node; fails if the id is taken. */
  | { kind: 'create'; node: Node }
  /**
   * The working copy becomes `node`, if it is still at `expectedNodeVersionId` and not deleted.
   * `previousStatus` (default: unchanged) keeps the status counts right when a write changes the status.
   */
  | {
      kind: 'replace';
      node: Node;
      expectedNodeVersionId: string;
      previousStatus?: NodeStatus;
      /** The version being replaced, to keep in the history (see keepVersions). */
      previous?: Node;
      /** A delete of the subtree of this root: the node's link moves to the trash (trashedChildKey). */
      trashRootId?: string;
    }
  /**
   * The published copy of a node becomes `node` (written with the replace of its working copy); a
   * process's keeps the diagram it is published with: its edges and the ids of its tasks.
   */
  | { kind: 'publish'; node: Node; diagram?: { edges: StoredEdge[]; taskIds: string[] } }
  /**
   * The published copy of a node is marked deleted along with its working copy, and is otherwise left as
   * published (a published diagram shows a task deleted since as it was published).
   */
  | { kind: 'deletePublished'; nodeId: string }
  /**
   * The commit fails if a delete of this node holds a lease at `at` (the moment of the write). Checked on
   * the shard of the node's counts the commit updates anyway (a create adds to its parent's), so it adds
   * no item to the transaction.
   */
  | { kind: 'requireLive'; nodeId: string; at: string }
  /**
   * A node of a batch (its batchId set), written invisible to readers and not yet counted: a batch is how
   * more writes than one transaction holds become visible at once (diagram-batches.ts).
   */
  | { kind: 'stage'; node: Node }
  /** A batch begins: its record, open, in the process's partition. */
  | { kind: 'openBatch'; processId: string; batchId: string; at: string }
  /** The batch's staged nodes (and edges) become visible and are counted, if the batch is still open. */
  | { kind: 'commitBatch'; processId: string; batchId: string; staged: Node[] }
  /** The batch will never commit (fails if it has): what it staged can go. */
  | { kind: 'abandonBatch'; processId: string; batchId: string }
  /** Removes a staged node of an abandoned batch (never visible, never counted). */
  | { kind: 'discardStaged'; nodeId: string; parentId: string }
  /** Removes an abandoned batch's record, once what it staged is gone. */
  | { kind: 'discardBatch'; processId: string; batchId: string }
  /** An edge of a process's diagram (with a batchId, staged with its batch), added by `stamp.by`. */
  | { kind: 'putEdge'; processId: string; edge: StoredEdge & { batchId?: string }; stamp: EdgeStamp }
  | { kind: 'deleteEdge'; processId: string; edgeId: string; trash?: { rootId: string; edge: StoredEdge } }
  /** An edge's ends moved with their task: only those ports are set, if the edge is still there. */
  | { kind: 'moveEdgePorts'; processId: string; edgeId: string; ports: MovedPorts; stamp: EdgeStamp }
  /**
   * A deleted subtree enters the trash (written with its root's delete, the last commit). `supersedes`: the
   * entry of an earlier delete of the same root whose restore was cut short; what it still holds is in the
   * trash under the same root, so this entry's restore or purge takes it, and it goes.
   */
  | { kind: 'trashEntry'; entry: TrashEntry; supersedes?: string | undefined }
  /** A deleted node of the subtree of `rootId` is live again, under its parent, and counted. */
  /** A deleted node comes back as `node`; `previous`, the copy its delete left, is kept in the history. */
  | { kind: 'restore'; node: Node; previous: Node; expectedNodeVersionId: string; rootId: string }
  | { kind: 'restorePublished'; nodeId: string }
  | { kind: 'restoreEdge'; processId: string; rootId: string; edge: StoredEdge; stamp: EdgeStamp }
  /** An edge kept with the delete of `rootId` goes to that of `toRootId` (its other end, still deleted). */
  | { kind: 'retrashEdge'; processId: string; rootId: string; toRootId: string; edge: StoredEdge }
  /**
   * The subtree left the trash (restored or purged): its entry, and its pointer unless that names a later
   * delete of the root (the commit fails then: that delete's trash stays whole).
   */
  | { kind: 'untrash'; deletedAt: string; rootId: string }
  /**
   * A purge of the subtree of `rootId` begins, marked on its trash pointer and its root, if the root is
   * still as its delete left it (at `expectedNodeVersionId`): no restore of it has committed anything (the
   * first commit of a restore brings the root back), and none can from now on (a restore of a marked node
   * fails).
   */
  | { kind: 'beginPurge'; rootId: string; deletedAt: string; expectedNodeVersionId: string; at: string }
  /** The working copy of a deleted node, gone for good (a purge's last commit; never a live node). */
  | { kind: 'purgeNode'; nodeId: string }
  /**
   * A document takes the uploader's assembled file: the upload becomes attached to it, if it is still
   * complete and unexpired (so an upload is attached at most once).
   */
  | { kind: 'claimUpload'; principalId: string; uploadKey: string; nodeId: string; at: string };

/** Who added or restored an edge, and when (the change feed's `by` and `at`). */
export interface EdgeStamp {
  by: string;
  at: string;
}

const stampedEdgeItem = (edge: StoredEdge & { batchId?: string }, processId: string, stamp: EdgeStamp) =>
  edges.toItem({ ...edge, changedBy: stamp.by, changedAt: stamp.at }, processId);

/** A condition of the listed writes did not hold; nothing of the commit was written. */
export class NodeWriteConflict extends ConflictError {
  constructor(readonly failed: NodeWrite[]) {
    super('WRITE_CONFLICT', 'The object was changed while this request was being carried out; retry it');
  }
}

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** An edge kept in its process's partition for the delete of `rootId`, until a restore or purge. */
const trashedEdgeItem = (processId: string, rootId: string, edge: StoredEdge) => ({
  ...edges.toItem(edge, processId),
  ...trashedEdgeKey(processId, rootId, edge.edgeId),
  entity: 'TrashedEdge',
});

/**
 * The items one write puts into the transaction. Creating a node also records it with its parent,
 * and soft-deleting it removes that record, so the parent's children can be read consistently.
 */
function toTransactItems(write: NodeWrite, TableName: string): TransactItem[] {
  switch (write.kind) {
    case 'create': {
      const { node } = write;
      const put: TransactItem = {
        Put: { TableName, Item: nodes.toItem(node), ConditionExpression: 'attribute_not_exists(PK)' },
      };
      if (!node.parentId) return [put];
      const link = childLinks.toItem({ childId: node.nodeId, nodeType: node.nodeType }, node.parentId);
      return [put, { Put: { TableName, Item: link } }];
    }
    case 'publish': {
      // The published copy, as the working copy now is (the replace beside it records the version); a
      // process's copy keeps its edges as they are now (edges are not versioned on their own) and which
      // tasks it has, so a task deleted later still shows in the published diagram.
      const item = nodes.toItem(write.node, 'PUBLISHED');
      const { diagram } = write;
      const kept = diagram ? { [PUBLISHED_EDGES]: diagram.edges, [PUBLISHED_TASK_IDS]: diagram.taskIds } : {};
      return [{ Put: { TableName, Item: { ...item, ...kept } } }];
    }
    case 'stage': {
      const { node } = write;
      if (!node.batchId || !node.parentId) throw new Error('A staged node needs a batchId and a parent');
      const link = { childId: node.nodeId, nodeType: node.nodeType, batchId: node.batchId };
      return [
        { Put: { TableName, Item: nodes.toItem(node), ConditionExpression: 'attribute_not_exists(PK)' } },
        { Put: { TableName, Item: childLinks.toItem(link, node.parentId) } },
      ];
    }
    case 'openBatch': {
      const batch = { batchId: write.batchId, state: 'open' as const, startedAt: write.at };
      return [
        {
          Put: {
            TableName,
            Item: diagramBatches.toItem(batch, write.processId),
            ConditionExpression: 'attribute_not_exists(PK)',
          },
        },
      ];
    }
    case 'commitBatch':
      return [
        {
          Update: {
            TableName,
            Key: diagramBatchKey(write.processId, write.batchId),
            UpdateExpression: 'SET #state = :committed',
            ConditionExpression: '#state = :open',
            ExpressionAttributeNames: { '#state': 'state' },
            ExpressionAttributeValues: { ':committed': 'committed', ':open': 'open' },
          },
        },
      ];
    case 'abandonBatch':
      return [
        {
          Update: {
            TableName,
            Key: diagramBatchKey(write.processId, write.batchId),
            UpdateExpression: 'SET #state = :abandoned',
            ConditionExpression: '#state IN (:open, :abandoned)',
            ExpressionAttributeNames: { '#state': 'state' },
            ExpressionAttributeValues: { ':open': 'open', ':abandoned': 'abandoned' },
          },
        },
      ];
    case 'discardStaged':
      return [
        {
          Delete: {
            TableName,
            Key: nodeKey(write.nodeId),
            // Only what a batch staged: never a node readers can see.
            ConditionExpression: 'attribute_not_exists(PK) OR attribute_exists(batchId)',
          },
        },
        { Delete: { TableName, Key: childLinkKey(write.parentId, write.nodeId) } },
      ];
    case 'discardBatch':
      return [
        {
          Delete: {
            TableName,
            Key: diagramBatchKey(write.processId, write.batchId),
            ConditionExpression: 'attribute_not_exists(PK) OR #state = :abandoned',
            ExpressionAttributeNames: { '#state': 'state' },
            ExpressionAttributeValues: { ':abandoned': 'abandoned' },
          },
        },
      ];
    case 'putEdge':
      return [{ Put: { TableName, Item: stampedEdgeItem(write.edge, write.processId, write.stamp) } }];
    case 'moveEdgePorts': {
      const ports = Object.entries(write.ports);
      return [
        {
          Update: {
            TableName,
            Key: edgeKey(write.processId, write.edgeId),
            UpdateExpression: `SET ${ports.map((_, i) => `#port${i} = :port${i}`).join(', ')}, #by = :by, #at = :at`,
            ConditionExpression: 'attribute_exists(PK)',
            ExpressionAttributeNames: {
              ...Object.fromEntries(ports.map(([name], i) => [`#port${i}`, name])),
              '#by': 'changedBy',
              '#at': 'changedAt',
            },
            ExpressionAttributeValues: {
              ...Object.fromEntries(ports.map(([, point], i) => [`:port${i}`, point])),
              ':by': write.stamp.by,
              ':at': write.stamp.at,
            },
          },
        },
      ];
    }
    case 'deleteEdge': {
      const remove: TransactItem = { Delete: { TableName, Key: edgeKey(write.processId, write.edgeId) } };
      if (!write.trash) return [remove];
      const { rootId, edge } = write.trash;
      return [remove, { Put: { TableName, Item: trashedEdgeItem(write.processId, rootId, edge) } }];
    }
    case 'trashEntry': {
      const pointer = { ...trashPointerKey(write.entry.nodeId), deletedAt: write.entry.deletedAt };
      const { supersedes } = write;
      // Over no pointer, or the one of the entry superseded: a pointer left by a restore cut short fails
      // the delete, which then supersedes its entry.
      const putPointer: TransactItem = {
        Put: {
          TableName,
          Item: pointer,
          ...(supersedes
            ? { ConditionExpression: 'deletedAt = :old', ExpressionAttributeValues: { ':old': supersedes } }
            : { ConditionExpression: 'attribute_not_exists(PK)' }),
        },
      };
      return [
        { Put: { TableName, Item: trashEntries.toItem(write.entry) } },
        putPointer,
        ...(supersedes
          ? [{ Delete: { TableName, Key: trashEntryKey(supersedes, write.entry.nodeId) } }]
          : []),
      ];
    }
    case 'untrash':
      return [
        { Delete: { TableName, Key: trashEntryKey(write.deletedAt, write.rootId) } },
        {
          Delete: {
            TableName,
            Key: trashPointerKey(write.rootId),
            ConditionExpression: 'attribute_not_exists(PK) OR deletedAt = :deletedAt',
            ExpressionAttributeValues: { ':deletedAt': write.deletedAt },
          },
        },
      ];
    case 'beginPurge': {
      const mark = {
        UpdateExpression: 'SET #purge = if_not_exists(#purge, :at)',
        ExpressionAttributeNames: { '#purge': PURGE_STARTED_ATTRIBUTE },
      };
      return [
        {
          Update: {
            TableName,
            Key: trashPointerKey(write.rootId),
            ...mark,
            ConditionExpression: 'deletedAt = :deletedAt',
            ExpressionAttributeValues: { ':deletedAt': write.deletedAt, ':at': write.at },
          },
        },
        {
          Update: {
            TableName,
            Key: nodeKey(write.rootId),
            ...mark,
            ConditionExpression: 'nodeVersionId = :expected AND deleted = :true',
            ExpressionAttributeValues: {
              ':expected': write.expectedNodeVersionId,
              ':true': true,
              ':at': write.at,
            },
          },
        },
      ];
    }
    case 'purgeNode':
      return [
        {
          Delete: {
            TableName,
            Key: nodeKey(write.nodeId),
            ConditionExpression: 'attribute_not_exists(PK) OR deleted = :true',
            ExpressionAttributeValues: { ':true': true },
          },
        },
      ];
    case 'restore': {
      const { node } = write;
      const put: TransactItem = {
        Put: {
          TableName,
          Item: nodes.toItem(node),
          // Never a root whose purge has begun (beginPurge).
          ConditionExpression:
            'nodeVersionId = :expected AND deleted = :true AND attribute_not_exists(#purge)',
          ExpressionAttributeNames: { '#purge': PURGE_STARTED_ATTRIBUTE },
          ExpressionAttributeValues: { ':expected': write.expectedNodeVersionId, ':true': true },
        },
      };
      if (!node.parentId) return [put];
      const link = childLinks.toItem({ childId: node.nodeId, nodeType: node.nodeType }, node.parentId);
      return [
        put,
        { Put: { TableName, Item: link } },
        { Delete: { TableName, Key: trashedChildKey(node.parentId, write.rootId, node.nodeId) } },
      ];
    }
    case 'restorePublished':
      return [
        {
          Update: {
            TableName,
            Key: nodeKey(write.nodeId, 'PUBLISHED'),
            UpdateExpression: 'SET deleted = :false',
            ConditionExpression: 'attribute_exists(PK)',
            ExpressionAttributeValues: { ':false': false },
          },
        },
      ];
    case 'retrashEdge':
      return [
        { Put: { TableName, Item: trashedEdgeItem(write.processId, write.toRootId, write.edge) } },
        { Delete: { TableName, Key: trashedEdgeKey(write.processId, write.rootId, write.edge.edgeId) } },
      ];
    case 'restoreEdge':
      return [
        { Put: { TableName, Item: stampedEdgeItem(write.edge, write.processId, write.stamp) } },
        { Delete: { TableName, Key: trashedEdgeKey(write.processId, write.rootId, write.edge.edgeId) } },
      ];
    case 'replace': {
      const { node } = write;
      const put: TransactItem = {
        Put: {
          TableName,
          Item: nodes.toItem(node),
          // A relation added since the node was read set hasRelations, which this put must not undo.
          ConditionExpression:
            'nodeVersionId = :expected AND deleted = :false AND (attribute_not_exists(hasRelations) OR hasRelations = :hasRelations)',
          ExpressionAttributeValues: {
            ':expected': write.expectedNodeVersionId,
            ':false': false,
            ':hasRelations': node.hasRelations ?? false,
          },
        },
      };
      if (!node.deleted || !node.parentId) return [put];
      const unlink: TransactItem = { Delete: { TableName, Key: childLinkKey(node.parentId, node.nodeId) } };
      if (!write.trashRootId) return [put, unlink];
      const trashed = trashedChildren.toItem(
        { childId: node.nodeId, nodeType: node.nodeType },
        node.parentId,
        write.trashRootId,
      );
      return [put, unlink, { Put: { TableName, Item: trashed } }];
    }
    case 'deletePublished':
      return [
        {
          Update: {
            TableName,
            Key: nodeKey(write.nodeId, 'PUBLISHED'),
            UpdateExpression: 'SET deleted = :true',
            ConditionExpression: 'attribute_exists(PK)',
            ExpressionAttributeValues: { ':true': true },
          },
        },
      ];
    case 'requireLive':
      // Folded into the counts update of the node (see transactionOf).
      return [];
    case 'claimUpload': {
      const nowSeconds = Math.floor(Date.parse(write.at) / 1000);
      return [
        {
          Update: {
            TableName,
            Key: uploadItemKey(write.principalId, write.uploadKey),
            UpdateExpression:
              'SET #state = :attached, attachedTo = :nodeId, updatedAt = :at, expiresAtEpoch = :expires',
            ConditionExpression: '#state = :complete AND expiresAtEpoch > :now',
            ExpressionAttributeNames: { '#state': 'state' },
            ExpressionAttributeValues: {
              ':attached': 'attached',
              ':complete': 'complete',
              ':nodeId': write.nodeId,
              ':at': write.at,
              ':now': nowSeconds,
              ':expires': nowSeconds + UPLOAD_RETENTION.attachedSeconds,
            },
          },
        },
      ];
    }
  }
}

const LEASE_FREE = 'attribute_not_exists(#lease) OR #lease < :at';

/**
 * The count updates of a commit, in shard `shard` of each node, each remembering the requireLive write
 * whose lease condition it carries; a node that must be live but has no counts update here gets a
 * condition check on that shard instead.
 */
function countItems(
  writes: NodeWrite[],
  TableName: string,
  shard: number,
): { write?: NodeWrite; item: TransactItem }[] {
  const updates: { write?: NodeWrite; item: TransactItem }[] = countUpdates(
    countDeltasOf(writes),
    TableName,
    shard,
  ).map((Update) => ({ item: { Update } }));
  for (const write of writes) {
    if (write.kind !== 'requireLive') continue;
    const lease = { ExpressionAttributeNames: { '#lease': DELETE_LEASE_ATTRIBUTE }, ':at': write.at };
    const entry = updates.find((u) => u.item.Update?.Key?.PK === nodeKey(write.nodeId).PK);
    if (entry?.item.Update) {
      const update = entry.item.Update;
      update.ConditionExpression = LEASE_FREE;
      update.ExpressionAttributeNames = {
        ...update.ExpressionAttributeNames,
        ...lease.ExpressionAttributeNames,
      };
      update.ExpressionAttributeValues = { ...update.ExpressionAttributeValues, ':at': write.at };
      entry.write = write;
    } else {
      updates.push({
        write,
        item: {
          ConditionCheck: {
            TableName,
            Key: countsKey(write.nodeId, shard),
            ConditionExpression: LEASE_FREE,
            ExpressionAttributeNames: lease.ExpressionAttributeNames,
            ExpressionAttributeValues: { ':at': write.at },
          },
        },
      });
    }
  }
  return updates;
}

/** How the writes change the live counts above the nodes they write. */
function countDeltasOf(writes: NodeWrite[]): CountDeltas {
  const deltas: CountDeltas = new Map();
  for (const write of writes) {
    if (write.kind === 'create' || write.kind === 'restore')
      countNode(deltas, write.node, write.node.nodeStatus, 1);
    if (write.kind === 'commitBatch')
      for (const node of write.staged) countNode(deltas, node, node.nodeStatus, 1);
    if (write.kind !== 'replace') continue;
    const { node, previousStatus = node.nodeStatus } = write;
    if (node.deleted) countNode(deltas, node, previousStatus, -1);
    else if (previousStatus !== node.nodeStatus) {
      countNode(deltas, node, previousStatus, -1);
      countNode(deltas, node, node.nodeStatus, 1);
    }
  }
  return deltas;
}

/** The whole transaction: each write's items, then the count updates, each remembering its write. */
function transactionOf(
  writes: NodeWrite[],
  TableName: string,
  shard = 0,
): { write?: NodeWrite; item: TransactItem }[] {
  return [
    ...writes.flatMap((write) => toTransactItems(write, TableName).map((item) => ({ write, item }))),
    ...countItems(writes, TableName, shard),
  ];
}

/** DynamoDB's limits on one transaction: 100 items and 4 MB (kept well under, as sizes are estimated). */
export const MAX_WRITES_PER_COMMIT = 100;
const MAX_COMMIT_BYTES = 3_500_000;

/** What a set of writes takes of one commit: transaction items and (estimated) bytes. */
export interface CommitFootprint {
  items: number;
  bytes: number;
}

/** Transaction items of a set of writes, counts items shared among them counted once. */
export const commitItemCount = (writes: NodeWrite[]) => transactionOf(writes, '').length;

/** Estimated bytes of a set of writes (their JSON), counts items included. */
export const commitBytes = (writes: NodeWrite[]) =>
  Buffer.byteLength(JSON.stringify(transactionOf(writes, '').map((e) => e.item)));

/** One item is left for the Idempotency-Key claim the commit that completes a request may carry. */
export const fitsOneCommit = (footprint: CommitFootprint) =>
  footprint.items < MAX_WRITES_PER_COMMIT && footprint.bytes <= MAX_COMMIT_BYTES;

/**
 * A subtree delete is about to read the children of `node`: until `until`, no child can be created under
 * it (see requireLive), so the children read afterwards are all it will have. The lease is set on every
 * shard of the node's counts, each on its own (a create that meets one is held up only by that one), so
 * creates streaming into a folder cannot starve its delete. Fails (NodeWriteConflict) unless the node is
 * still at the version the delete read. Readers see nothing of it.
 */
export async function leaseForDelete(node: Node, until: string): Promise<void> {
  const TableName = config().tableName;
  await Promise.all(
    Array.from({ length: COUNT_SHARDS }, (_, shard) =>
      dynamoDb().send(
        new UpdateCommand({
          TableName,
          Key: countsKey(node.nodeId, shard),
          UpdateExpression: 'SET #lease = :until',
          ExpressionAttributeNames: { '#lease': DELETE_LEASE_ATTRIBUTE },
          ExpressionAttributeValues: { ':until': until },
        }),
      ),
    ),
  );
  const current = await findNode(node.nodeId);
  if (current?.nodeVersionId !== node.nodeVersionId || current.deleted) {
    throw new NodeWriteConflict([{ kind: 'requireLive', nodeId: node.nodeId, at: until }]);
  }
}

/**
 * Commits the writes all together or not at all. The commit that `completesRequest` also records the
 * request's Idempotency-Key claim, if the client sent one: the writes and the claim happen once, together.
 */
export async function commitNodeWrites(
  writes: NodeWrite[],
  { completesRequest = false }: { completesRequest?: boolean } = {},
): Promise<void> {
  if (writes.length === 0) return;
  const { tableName } = config();
  const claim = completesRequest ? currentInvocation()?.idempotency : undefined;
  const expanded: { write?: NodeWrite; item: TransactItem; claims?: true }[] = [
    ...transactionOf(writes, tableName, pickShard()),
    ...(claim ? [{ item: claimItem(claim, tableName), claims: true as const }] : []),
  ];
  if (expanded.length > MAX_WRITES_PER_COMMIT) {
    throw new Error(`A commit holds at most ${MAX_WRITES_PER_COMMIT} items, got ${expanded.length}`);
  }
  await keepVersions(writes, tableName, 'before');
  // A delete keeps the version it ends beside its commit (no round trip more for a delete).
  const keptBeside = keepVersions(writes, tableName, 'beside').catch((error: unknown) =>
    console.error(
      JSON.stringify({ level: 'error', msg: 'keeping the version a delete ends', error: String(error) }),
    ),
  );
  const items = expanded.map((e) => e.item);
  const [only] = items.length === 1 ? items : [];
  // A single put or update needs no transaction (half the write cost); anything else is all-or-nothing.
  const commit: Promise<unknown> = only?.Put
    ? dynamoDb().send(new PutCommand(only.Put))
    : only?.Update
      ? dynamoDb().send(new UpdateCommand(only.Update))
      : only?.Delete
        ? dynamoDb().send(new DeleteCommand(only.Delete))
        : dynamoDb().send(new TransactWriteCommand({ TransactItems: items }));
  // Each transaction item remembers the write it came from, to name the writes whose condition failed.
  try {
    await conditionally(commit, (failed) => {
      if (failed.some((i) => expanded[i]?.claims)) return idempotencyKeyInUse();
      const failedWrites = failed.flatMap((i) => expanded[i]?.write ?? []);
      return new NodeWriteConflict([...new Set(failedWrites)]);
    });
  } finally {
    await keptBeside;
  }
  if (claim) claim.committed = true;
  // A restore keeps the copy it replaced once it has: a restore a purge cut off writes none where the purge
  // has already cleared.
  await keepVersions(writes, tableName, 'after').catch((error: unknown) =>
    console.error(
      JSON.stringify({ level: 'error', msg: 'keeping the copy a restore replaced', error: String(error) }),
    ),
  );
}

/**
 * A node's history is its working copy (the current version) and a VERSION item for each version it had
 * before. An update keeps the version it replaces before it commits, with a plain put of the same key
 * whatever happens next: if the update then fails, the kept version is one the node did have. A plain put
 * beside the transaction costs half what the same put in the transaction would. A delete keeps the live
 * version it ends too (a restore brings back its content under a new version, and the history, a published
 * version included, stays whole), beside its commit: `when` picks the updates' keeping or the deletes'.
 * A restore keeps the deleted copy it replaced, after its commit: the version the delete answered (who
 * deleted it, when) stays in the history and can be read by its nodeVersionId.
 */
async function keepVersions(
  writes: NodeWrite[],
  TableName: string,
  when: 'before' | 'beside' | 'after',
): Promise<void> {
  const replaced = writes.flatMap((w) => {
    if (w.kind === 'restore') return when === 'after' ? [w.previous] : [];
    if (when === 'after') return [];
    return w.kind === 'replace' && w.previous && !w.previous.deleted && w.node.deleted === (when === 'beside')
      ? [w.previous]
      : [];
  });
  await Promise.all(
    replaced.map((previous) =>
      dynamoDb().send(new PutCommand({ TableName, Item: nodeVersions.toItem(previous) })),
    ),
  );
}

/**
 * A restored node takes creates again: the lease its delete set (until `deletedAt` plus the lease time)
 * is lifted on every shard. A later delete's lease runs past that and stays.
 */
export async function releaseDeleteLease(nodeId: string, leaseEndedBy: string): Promise<void> {
  const TableName = config().tableName;
  await Promise.all(
    Array.from({ length: COUNT_SHARDS }, (_, shard) =>
      writtenIfHeld(
        dynamoDb().send(
          new UpdateCommand({
            TableName,
            Key: countsKey(nodeId, shard),
            UpdateExpression: 'REMOVE #lease',
            ConditionExpression: '#lease <= :until',
            ExpressionAttributeNames: { '#lease': DELETE_LEASE_ATTRIBUTE },
            ExpressionAttributeValues: { ':until': leaseEndedBy },
          }),
        ),
      ),
    ),
  );
}

/** Another request with the same Idempotency-Key completed meanwhile. */
export const idempotencyKeyInUse = () =>
  new ConflictError(
    'IDEMPOTENCY_KEY_IN_USE',
    'Another request with this Idempotency-Key is being carried out or was carried out; repeat this one to get its answer',
  );

/**
 * Groups of writes in as few commits as DynamoDB's limits allow, a group never split. Items are counted
 * exactly (the counts items nodes of one batch share, once); bytes are each group's, added up.
 */
export async function* commitBatches<G extends NodeWrite[] | { writes: NodeWrite[] }>(
  groups: G[],
): AsyncGenerator<G[]> {
  const writesOf = (group: G) => (Array.isArray(group) ? group : group.writes);
  let batch: G[] = [];
  let bytes = 0;
  for (const group of groups) {
    const groupBytes = commitBytes(writesOf(group));
    const together = {
      items: commitItemCount([...batch, group].flatMap(writesOf)),
      bytes: bytes + groupBytes,
    };
    if (batch.length > 0 && !fitsOneCommit(together)) {
      yield batch;
      batch = [];
      bytes = 0;
    }
    batch.push(group);
    bytes += groupBytes;
  }
  if (batch.length > 0) yield batch;
}
