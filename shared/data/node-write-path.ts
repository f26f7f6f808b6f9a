/**
 * The one write path for nodes. Every mutation (create, update, soft delete, and later move, restore,
 * publish, add tasks) is expressed as NodeWrites and committed here, so a change record for sync
 * clients can later join the same transaction as the write it describes.
 */
import {
  PutCommand,
  TransactWriteCommand,
  type TransactWriteCommandInput,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { dynamoDb } from '#shared/clients/dynamodb.ts';
import { config } from '#shared/config/index.ts';
import { ConflictError } from '#shared/domain/errors.ts';
import type { Node, NodeStatus } from '#shared/domain/node.ts';
import { conditionally } from './conditional-writes.ts';
import { childLinks, nodes } from './entities.ts';
import { childLinkKey, DELETE_LEASE_ATTRIBUTE, nodeKey } from './keys.ts';
import { type CountDeltas, countNode, countUpdates } from './node-counts.ts';

export type NodeWrite =
  /** A new node; fails if the id is taken. */
  | { kind: 'create'; node: Node }
  /**
   * The working copy becomes `node`, if it is still at `expectedNodeVersionId` and not deleted.
   * `previousStatus` (default: unchanged) keeps the status counts right when a write changes the status.
   */
  | { kind: 'replace'; node: Node; expectedNodeVersionId: string; previousStatus?: NodeStatus }
  /** The published copy of a node is marked deleted along with its working copy. */
  | { kind: 'deletePublished'; nodeId: string; modificationDate: string }
  /**
   * A subtree delete is about to read this node's children: until `until`, no child can be created under
   * it (see requireLive), so the children read afterwards are all it has. Readers see nothing of it.
   */
  | { kind: 'markDeleting'; nodeId: string; expectedNodeVersionId: string; until: string }
  /**
   * Nothing is written, but the commit fails unless this node exists, is not deleted, and no delete of it
   * holds a lease at `at` (the moment of the write).
   */
  | { kind: 'requireLive'; nodeId: string; at: string };

/** A condition of the listed writes did not hold; nothing of the commit was written. */
export class NodeWriteConflict extends ConflictError {
  constructor(readonly failed: NodeWrite[]) {
    super('WRITE_CONFLICT', 'The object was changed while this request was being carried out; retry it');
  }
}

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

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
    case 'replace': {
      const { node } = write;
      const put: TransactItem = {
        Put: {
          TableName,
          Item: nodes.toItem(node),
          ConditionExpression: 'nodeVersionId = :expected AND deleted = :false',
          ExpressionAttributeValues: { ':expected': write.expectedNodeVersionId, ':false': false },
        },
      };
      if (!node.deleted || !node.parentId) return [put];
      return [put, { Delete: { TableName, Key: childLinkKey(node.parentId, node.nodeId) } }];
    }
    case 'deletePublished':
      return [
        {
          Update: {
            TableName,
            Key: nodeKey(write.nodeId, 'PUBLISHED'),
            UpdateExpression: 'SET deleted = :true, modificationDate = :at',
            ConditionExpression: 'attribute_exists(PK)',
            ExpressionAttributeValues: { ':true': true, ':at': write.modificationDate },
          },
        },
      ];
    case 'markDeleting':
      return [
        {
          Update: {
            TableName,
            Key: nodeKey(write.nodeId),
            UpdateExpression: 'SET #lease = :until',
            ConditionExpression: 'nodeVersionId = :expected AND deleted = :false',
            ExpressionAttributeNames: { '#lease': DELETE_LEASE_ATTRIBUTE },
            ExpressionAttributeValues: {
              ':until': write.until,
              ':expected': write.expectedNodeVersionId,
              ':false': false,
            },
          },
        },
      ];
    case 'requireLive':
      return [
        {
          ConditionCheck: {
            TableName,
            Key: nodeKey(write.nodeId),
            ConditionExpression:
              'attribute_exists(PK) AND deleted = :false AND (attribute_not_exists(#lease) OR #lease < :at)',
            ExpressionAttributeNames: { '#lease': DELETE_LEASE_ATTRIBUTE },
            ExpressionAttributeValues: { ':false': false, ':at': write.at },
          },
        },
      ];
  }
}

/** How the writes change the live counts above the nodes they write. */
function countDeltasOf(writes: NodeWrite[]): CountDeltas {
  const deltas: CountDeltas = new Map();
  for (const write of writes) {
    if (write.kind === 'create') countNode(deltas, write.node, write.node.nodeStatus, 1);
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
function transactionOf(writes: NodeWrite[], TableName: string): { write?: NodeWrite; item: TransactItem }[] {
  return [
    ...writes.flatMap((write) => toTransactItems(write, TableName).map((item) => ({ write, item }))),
    ...countUpdates(countDeltasOf(writes), TableName).map((Update) => ({ item: { Update } })),
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

export const fitsOneCommit = (footprint: CommitFootprint) =>
  footprint.items <= MAX_WRITES_PER_COMMIT && footprint.bytes <= MAX_COMMIT_BYTES;

/** Commits the writes all together or not at all. */
export async function commitNodeWrites(writes: NodeWrite[]): Promise<void> {
  if (writes.length === 0) return;
  const { tableName } = config();
  const expanded = transactionOf(writes, tableName);
  if (expanded.length > MAX_WRITES_PER_COMMIT) {
    throw new Error(`A commit holds at most ${MAX_WRITES_PER_COMMIT} items, got ${expanded.length}`);
  }
  const items = expanded.map((e) => e.item);
  const [only] = items.length === 1 ? items : [];
  // A single put or update needs no transaction (half the write cost); anything else is all-or-nothing.
  const commit: Promise<unknown> = only?.Put
    ? dynamoDb().send(new PutCommand(only.Put))
    : only?.Update
      ? dynamoDb().send(new UpdateCommand(only.Update))
      : dynamoDb().send(new TransactWriteCommand({ TransactItems: items }));
  // Each transaction item remembers the write it came from, to name the writes whose condition failed.
  await conditionally(commit, (failed) => {
    const failedWrites = failed.flatMap((i) => expanded[i]?.write ?? []);
    return new NodeWriteConflict([...new Set(failedWrites)]);
  });
}
