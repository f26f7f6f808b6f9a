/** Users: one profile item per user, one item that keeps usernames unique, and the roles granted to them. */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoDb } from '#shared/clients/dynamodb.ts';
import { config } from '#shared/config/index.ts';
import { ConflictError, NotFoundError } from '#shared/domain/errors.ts';
import type { Role } from '#shared/domain/permissions.ts';
import type { User } from '#shared/domain/user.ts';
import { conditionFailedAt, retryableAsUnavailable } from './dynamo-errors.ts';
import { GRANT_PREFIX, grantKey, USERS_PARTITION, userKey, usernameKey, usersIndexKeys } from './keys.ts';
import { getItem, queryAll } from './reads.ts';
import { GSI2, TABLE_SCHEMA } from './table-schema.ts';

export function itemToUser(item: Record<string, unknown>): User {
  const { PK, SK, GSI2PK, GSI2SK, entity, ...user } = item;
  return { grants: {}, ...user } as unknown as User;
}

const userItem = (user: User) => ({
  ...userKey(user.principalId),
  ...usersIndexKeys(user.username),
  entity: 'User',
  ...user,
});

export async function findUser(principalId: string): Promise<User | null> {
  const item = await getItem(userKey(principalId));
  return item ? itemToUser(item) : null;
}

export async function findUserByUsername(username: string): Promise<User | null> {
  const item = await getItem(usernameKey(username));
  return item ? findUser(String(item.principalId)) : null;
}

/** Every user, sorted by username. */
export async function listUsers(): Promise<User[]> {
  const index = GSI2;
  return (await queryAll(index.partitionKey, USERS_PARTITION, { indexName: index.indexName })).map(
    itemToUser,
  );
}

export async function createUser(user: User): Promise<void> {
  const TableName = config().tableName;
  try {
    await dynamoDb().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName,
              Item: { ...usernameKey(user.username), entity: 'Username', principalId: user.principalId },
              ConditionExpression: 'attribute_not_exists(PK)',
            },
          },
          { Put: { TableName, Item: userItem(user), ConditionExpression: 'attribute_not_exists(PK)' } },
        ],
      }),
    );
  } catch (error) {
    if (conditionFailedAt(error, 0)) {
      throw new ConflictError('USERNAME_TAKEN', `The username "${user.username}" is already taken`);
    }
    retryableAsUnavailable(error);
  }
}

/** Replaces a user's profile; the username (and its uniqueness item) never changes. */
export async function saveUser(user: User): Promise<void> {
  try {
    await dynamoDb().send(
      new PutCommand({
        TableName: config().tableName,
        Item: userItem(user),
        ConditionExpression: 'attribute_exists(PK)',
      }),
    );
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException)
      throw new NotFoundError('USER_NOT_FOUND', `No user ${user.principalId}`);
    retryableAsUnavailable(error);
  }
}

export interface GrantRecord {
  nodeId: string;
  principalId: string;
  role: Role;
  grantedBy: string;
  grantedAt: string;
}

/**
 * Grants (or replaces) a role: on the user item, where every permission check finds it, and under the
 * node, where the node's grants are listed. Both change together or not at all.
 */
export async function putGrant(grant: GrantRecord): Promise<void> {
  const TableName = config().tableName;
  try {
    await dynamoDb().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName,
              Key: userKey(grant.principalId),
              UpdateExpression: 'SET grants.#node = :role',
              ConditionExpression: 'attribute_exists(PK) AND attribute_exists(grants)',
              ExpressionAttributeNames: { '#node': grant.nodeId },
              ExpressionAttributeValues: { ':role': grant.role },
            },
          },
          {
            Put: {
              TableName,
              Item: { ...grantKey(grant.nodeId, grant.principalId), entity: 'Grant', ...grant },
            },
          },
        ],
      }),
    );
  } catch (error) {
    if (conditionFailedAt(error, 0)) {
      throw new NotFoundError('USER_NOT_FOUND', `No user ${grant.principalId}`);
    }
    retryableAsUnavailable(error);
  }
}

export async function deleteGrant(nodeId: string, principalId: string): Promise<void> {
  const TableName = config().tableName;
  try {
    await dynamoDb().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName,
              Key: userKey(principalId),
              UpdateExpression: 'REMOVE grants.#node',
              ConditionExpression: 'attribute_exists(grants.#node)',
              ExpressionAttributeNames: { '#node': nodeId },
            },
          },
          { Delete: { TableName, Key: grantKey(nodeId, principalId) } },
        ],
      }),
    );
  } catch (error) {
    if (conditionFailedAt(error, 0)) {
      throw new NotFoundError('GRANT_NOT_FOUND', `User ${principalId} holds no role on ${nodeId}`);
    }
    retryableAsUnavailable(error);
  }
}

export async function listGrantsOn(nodeId: string): Promise<GrantRecord[]> {
  const items = await queryAll(TABLE_SCHEMA.partitionKey, `NODE#${nodeId}`, {
    sortKeyPrefix: { attribute: TABLE_SCHEMA.sortKey, prefix: GRANT_PREFIX },
    consistent: true,
  });
  return items.map(({ nodeId: n, principalId, role, grantedBy, grantedAt }) => ({
    nodeId: String(n),
    principalId: String(principalId),
    role: role as Role,
    grantedBy: String(grantedBy),
    grantedAt: String(grantedAt),
  }));
}
