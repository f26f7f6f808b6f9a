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
import { nodeKey } from './keys.ts';
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

/** DynamoDB's limit on actions in one transaction. */
export const MAX_WRITES_PER_COMMIT = 100;

/** A condition of the listed writes did not hold; nothing of the commit was written. */
export class NodeWriteConflict extends ConflictError {
  constructor(readonly failed: NodeWrite[]) {
    super('WRITE_CONFLICT', 'The object was changed while this request was being carried out; retry it');
  }
}

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

function toTransactItem(write: NodeWrite, TableName: string): TransactItem {
  switch (write.kind) {
    case 'create':
      return {
        Put: { TableName, Item: nodeToItem(write.node), ConditionExpression: 'attribute_not_exists(PK)' },
      };
    case 'replace':
      return {
        Put: {
          TableName,
          Item: nodeToItem(write.node),
          ConditionExpression: 'nodeVersionId = :expected AND deleted = :false',
          ExpressionAttributeValues: { ':expected': write.expectedNodeVersionId, ':false': false },
        },
      };
    case 'deletePublished':
      return {
        Update: {
          TableName,
          Key: nodeKey(write.nodeId, 'PUBLISHED'),
          UpdateExpression: 'SET deleted = :true, modificationDate = :at',
          ConditionExpression: 'attribute_exists(PK)',
          ExpressionAttributeValues: { ':true': true, ':at': write.modificationDate },
        },
      };
    case 'requireLive':
      return {
        ConditionCheck: {
          TableName,
          Key: nodeKey(write.nodeId),
          ConditionExpression: 'attribute_exists(PK) AND deleted = :false',
          ExpressionAttributeValues: { ':false': false },
        },
      };
  }
}

/** Commits the writes all together or not at all. */
export async function commitNodeWrites(writes: NodeWrite[]): Promise<void> {
  if (writes.length === 0) return;
  if (writes.length > MAX_WRITES_PER_COMMIT) {
    throw new Error(`A commit holds at most ${MAX_WRITES_PER_COMMIT} writes, got ${writes.length}`);
  }
  const { tableName } = config();
  const items = writes.map((w) => toTransactItem(w, tableName));
  const only = items.length === 1 ? items[0]?.Put : undefined;
  try {
    // A single put needs no transaction (half the write cost); anything else is all-or-nothing.
    if (only) await dynamoDb.send(new PutCommand(only));
    else await dynamoDb.send(new TransactWriteCommand({ TransactItems: items }));
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) throw new NodeWriteConflict(writes);
    if (error instanceof TransactionCanceledException) {
      const reasons = error.CancellationReasons ?? [];
      const failed = writes.filter((_, i) => reasons[i]?.Code === 'ConditionalCheckFailed');
      if (failed.length > 0) throw new NodeWriteConflict(failed);
    }
    retryableAsUnavailable(error);
  }
}
