/** Users: one profile item per user and one item that keeps usernames unique. */
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoDb } from '#shared/clients/dynamodb.ts';
import { config } from '#shared/config/index.ts';
import { ConflictError } from '#shared/domain/errors.ts';
import type { User } from '#shared/domain/user.ts';
import { retryableAsUnavailable } from './dynamo-errors.ts';
import { userKey, usernameKey } from './keys.ts';

export function itemToUser(item: Record<string, unknown>): User {
  const { PK, SK, entity, ...user } = item;
  return user as unknown as User;
}

export async function findUser(principalId: string): Promise<User | null> {
  try {
    const { Item } = await dynamoDb.send(
      new GetCommand({ TableName: config().tableName, Key: userKey(principalId), ConsistentRead: true }),
    );
    return Item ? itemToUser(Item) : null;
  } catch (error) {
    return retryableAsUnavailable(error);
  }
}

export async function findUserByUsername(username: string): Promise<User | null> {
  try {
    const { Item } = await dynamoDb.send(
      new GetCommand({ TableName: config().tableName, Key: usernameKey(username), ConsistentRead: true }),
    );
    return Item ? findUser(String(Item.principalId)) : null;
  } catch (error) {
    return retryableAsUnavailable(error);
  }
}

export async function createUser(user: User): Promise<void> {
  const TableName = config().tableName;
  try {
    await dynamoDb.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName,
              Item: { ...usernameKey(user.username), entity: 'Username', principalId: user.principalId },
              ConditionExpression: 'attribute_not_exists(PK)',
            },
          },
          {
            Put: {
              TableName,
              Item: { ...userKey(user.principalId), entity: 'User', ...user },
              ConditionExpression: 'attribute_not_exists(PK)',
            },
          },
        ],
      }),
    );
  } catch (error) {
    if (
      error instanceof TransactionCanceledException &&
      error.CancellationReasons?.[0]?.Code === 'ConditionalCheckFailed'
    ) {
      throw new ConflictError('USERNAME_TAKEN', `The username "${user.username}" is already taken`);
    }
    retryableAsUnavailable(error);
  }
}
