/** Actions: one item each, indexed by assignee and due date. */
import { PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoDb } from '#shared/clients/dynamodb.ts';
import { config } from '#shared/config/index.ts';
import type { StoredAction } from '#shared/domain/action.ts';
import { ConflictError } from '#shared/domain/errors.ts';
import { conditionally } from './conditional-writes.ts';
import { actions } from './entities/actions.ts';
import { actionKey, userActionsPartition } from './keys.ts';
import { batchGetItems, getItem, queryAll } from './reads.ts';
import { GSI1 } from './table-schema.ts';

/** Creates the actions of one assignment all together. */
export async function createActions(assigned: StoredAction[]): Promise<void> {
  const TableName = config().tableName;
  await dynamoDb().send(
    new TransactWriteCommand({
      TransactItems: assigned.map((action) => ({
        Put: { TableName, Item: actions.toItem(action), ConditionExpression: 'attribute_not_exists(PK)' },
      })),
    }),
  );
}

export async function findAction(actionId: string): Promise<StoredAction | null> {
  const item = await getItem(actionKey(actionId));
  return item ? actions.fromItem(item) : null;
}

/** Replaces an action if it is still at `expectedNodeVersionId`. */
export async function saveAction(action: StoredAction, expectedNodeVersionId: string): Promise<void> {
  await conditionally(
    dynamoDb().send(
      new PutCommand({
        TableName: config().tableName,
        Item: actions.toItem(action),
        ConditionExpression: 'nodeVersionId = :expected',
        ExpressionAttributeValues: { ':expected': expectedNodeVersionId },
      }),
    ),
    () => new ConflictError('ACTION_CHANGED', 'The action changed meanwhile; retry'),
  );
}

/** Many actions by id, as stored now (strongly consistent), in no particular order. */
export async function findActions(actionIds: string[]): Promise<StoredAction[]> {
  return (await batchGetItems(actionIds.map(actionKey), { consistent: true })).map(actions.fromItem);
}

/** A user's actions, by due date, as the index has them (it lags the table: see myActions). */
export async function listActionsOf(principalId: string): Promise<StoredAction[]> {
  const items = await queryAll(GSI1.partitionKey, userActionsPartition(principalId), {
    indexName: GSI1.indexName,
  });
  return items.map(actions.fromItem);
}
