/** Actions: one item each, indexed by assignee and due date. */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoDb } from '#shared/clients/dynamodb.ts';
import { config } from '#shared/config/index.ts';
import type { StoredAction } from '#shared/domain/action.ts';
import { ConflictError } from '#shared/domain/errors.ts';
import { retryableAsUnavailable } from './dynamo-errors.ts';
import { actionKey, userActionsIndexKeys, userActionsPartition } from './keys.ts';
import { getItem, queryAll } from './reads.ts';
import { GSI1 } from './table-schema.ts';

const actionItem = (action: StoredAction) => ({
  ...actionKey(action.actionId),
  ...userActionsIndexKeys(action.user.principalId, action.dueDate, action.actionId),
  entity: 'Action',
  ...action,
});

function itemToAction(item: Record<string, unknown>): StoredAction {
  const { PK, SK, GSI1PK, GSI1SK, entity, ...action } = item;
  return action as unknown as StoredAction;
}

/** Creates the actions of one assignment all together. */
export async function createActions(actions: StoredAction[]): Promise<void> {
  const TableName = config().tableName;
  try {
    await dynamoDb().send(
      new TransactWriteCommand({
        TransactItems: actions.map((action) => ({
          Put: { TableName, Item: actionItem(action), ConditionExpression: 'attribute_not_exists(PK)' },
        })),
      }),
    );
  } catch (error) {
    retryableAsUnavailable(error);
  }
}

export async function findAction(actionId: string): Promise<StoredAction | null> {
  const item = await getItem(actionKey(actionId));
  return item ? itemToAction(item) : null;
}

/** Replaces an action if it is still at `expectedNodeVersionId`. */
export async function saveAction(action: StoredAction, expectedNodeVersionId: string): Promise<void> {
  try {
    await dynamoDb().send(
      new PutCommand({
        TableName: config().tableName,
        Item: actionItem(action),
        ConditionExpression: 'nodeVersionId = :expected',
        ExpressionAttributeValues: { ':expected': expectedNodeVersionId },
      }),
    );
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException)
      throw new ConflictError('ACTION_CHANGED', 'The action changed meanwhile; retry');
    retryableAsUnavailable(error);
  }
}

/** A user's actions, by due date. */
export async function listActionsOf(principalId: string): Promise<StoredAction[]> {
  const index = GSI1;
  return (
    await queryAll(index.partitionKey, userActionsPartition(principalId), { indexName: index.indexName })
  ).map(itemToAction);
}
