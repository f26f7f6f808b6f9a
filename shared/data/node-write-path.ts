/**
 * The one write path for nodes. Every mutation (create, update, soft delete, and later move, restore,
 * publish, add tasks) is expressed as NodeWrites and committed here, so a change record for sync
 * clients can later join the same transaction as the write it describes.
 */
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { PutCommand, TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { dynamoDb } from '#shared/clients/dynamodb.ts';
import { config } from '#shared/config/index.ts';
import { ConflictError } from '#shared/domain/errors.ts';
import type { Node } from '#shared/domain/node.ts';
import { retryableAsUnavailable } from './dynamo-errors.ts';
import { childLinkKey, nodeKey } from './keys.ts';
import { nodeToItem } from './node-items.ts';

export type NodeWrite =
  /** A new node; fails if the id is taken. */
  | { kind: 'create'; node: Node }
  /** The working copy becomes `node`, if it is still at `expectedNodeVersionId` and not deleted. */
  | { kind: 'replace'; node: Node; expectedNodeVersionId: string }
  /** The published copy of a node is marked deleted along with its working copy. */
  | { kind: 'deletePublished'; nodeId: string; modificationDate: string }
  /** Nothing is written, but the commit fails unless this node exists and is not deleted. */
  | { kind: 'requireLive'; nodeId: string };

/** DynamoDB's limit on items in one transaction. */
export const MAX_WRITES_PER_COMMIT = 100;

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
        Put: { TableName, Item: nodeToItem(node), ConditionExpression: 'attribute_not_exists(PK)' },
      };
      if (!node.parentId) return [put];
      const link = {
        ...childLinkKey(node.parentId, node.nodeId),
        entity: 'ChildLink',
        childId: node.nodeId,
        nodeType: node.nodeType,
      };
      return [put, { Put: { TableName, Item: link } }];
    }
    case 'replace': {
      const { node } = write;
      const put: TransactItem = {
        Put: {
          TableName,
          Item: nodeToItem(node),
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
    case 'requireLive':
      return [
        {
          ConditionCheck: {
            TableName,
            Key: nodeKey(write.nodeId),
            ConditionExpression: 'attribute_exists(PK) AND deleted = :false',
            ExpressionAttributeValues: { ':false': false },
          },
        },
      ];
  }
}

/** How many transaction items a set of writes takes (a commit holds at most MAX_WRITES_PER_COMMIT). */
export function transactionSize(writes: NodeWrite[]): number {
  return writes.reduce((size, write) => size + toTransactItems(write, '').length, 0);
}

/** Commits the writes all together or not at all. */
export async function commitNodeWrites(writes: NodeWrite[]): Promise<void> {
  if (writes.length === 0) return;
  const { tableName } = config();
  // Each transaction item remembers the write it came from, to name the writes whose condition failed.
  const expanded = writes.flatMap((write) =>
    toTransactItems(write, tableName).map((item) => ({ write, item })),
  );
  if (expanded.length > MAX_WRITES_PER_COMMIT) {
    throw new Error(`A commit holds at most ${MAX_WRITES_PER_COMMIT} items, got ${expanded.length}`);
  }
  const items = expanded.map((e) => e.item);
  const only = items.length === 1 ? items[0]?.Put : undefined;
  try {
    // A single put needs no transaction (half the write cost); anything else is all-or-nothing.
    if (only) await dynamoDb.send(new PutCommand(only));
    else await dynamoDb.send(new TransactWriteCommand({ TransactItems: items }));
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) throw new NodeWriteConflict(writes);
    if (error instanceof TransactionCanceledException) {
      const reasons = error.CancellationReasons ?? [];
      const failed = [
        ...new Set(
          expanded.filter((_, i) => reasons[i]?.Code === 'ConditionalCheckFailed').map((e) => e.write),
        ),
      ];
      if (failed.length > 0) throw new NodeWriteConflict(failed);
    }
    retryableAsUnavailable(error);
  }
}
