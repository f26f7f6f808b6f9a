/** Users: one profile item per user, one item that keeps usernames unique, and the roles granted to them. */

import { TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { forgetSessionsOf } from '#shared/auth/session-checks.ts';
import { dynamoDb } from '#shared/clients/dynamodb.ts';
import { config } from '#shared/config/index.ts';
import { ConflictError, NotFoundError } from '#shared/domain/errors.ts';
import type { GrantRecord, Principal, User } from '#shared/domain/user.ts';
import { conditionally } from './conditional-writes.ts';
import { grants, principals, usernames, users } from './entities/users.ts';
import { queryPage } from './keyed-pages.ts';
import { GRANT_PREFIX, grantKey, USERS_PARTITION, userKey, usernameKey } from './keys.ts';
import { batchGetItems, getItem } from './reads.ts';
import { GSI2 } from './table-schema.ts';

const noUser = (principalId: string) => new NotFoundError('USER_NOT_FOUND', `No user ${principalId}`);

export async function findUser(principalId: string): Promise<User | null> {
  const item = await getItem(userKey(principalId));
  return item ? users.fromItem(item) : null;
}

/** Many users by id, in no particular order (unknown ones left out), strongly consistent. */
export async function findUsers(principalIds: string[]): Promise<User[]> {
  return (await batchGetItems(principalIds.map(userKey), { consistent: true })).map(users.fromItem);
}

/**
 * The principals (spec §2.6: profile and contact details) of many users, in no particular order (unknown
 * ones left out), strongly consistent (a profile just changed shows at once); only those attributes are read.
 */
export async function findPrincipals(principalIds: string[]): Promise<Principal[]> {
  const items = await batchGetItems(principalIds.map(userKey), {
    consistent: true,
    attributes: principals.attributes(),
  });
  return items.map(principals.fromItem);
}

export async function findUserByUsername(username: string): Promise<User | null> {
  const item = await getItem(usernameKey(username));
  return item ? findUser(usernames.fromItem(item).principalId) : null;
}

/** A page of users in username order (at most `limit`), and where the next page starts. */
export async function listUsersPage(
  limit: number,
  after?: string,
): Promise<{ users: User[]; next?: string }> {
  const page = await queryPage({ partition: USERS_PARTITION, index: GSI2 }, limit, after ? { after } : {});
  return { users: page.items.map(users.fromItem), ...(page.next ? { next: page.next } : {}) };
}

export async function createUser(user: User): Promise<void> {
  const TableName = config().tableName;
  await conditionally(
    dynamoDb().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName,
              Item: usernames.toItem({ principalId: user.principalId }, user.username),
              ConditionExpression: 'attribute_not_exists(PK)',
            },
          },
          { Put: { TableName, Item: users.toItem(user), ConditionExpression: 'attribute_not_exists(PK)' } },
        ],
      }),
    ),
    (failed) =>
      failed.includes(0)
        ? new ConflictError('USERNAME_TAKEN', `The username "${user.username}" is already taken`)
        : undefined,
  );
}

/** What an update may change of a user: not the id, the username (kept unique apart) or the grants. */
export type UserChanges = Partial<Omit<User, 'principalId' | 'username' | 'grants'>>;

/**
 * Sets the given fields of a user, and only those: two changes of different fields at once both stay (a
 * whole-item put after a slow password hash undid a disable, a demotion or a grant made meanwhile).
 */
export async function updateUser(principalId: string, changes: UserChanges): Promise<void> {
  forgetSessionsOf(principalId);
  const fields = Object.entries(changes).filter(([, value]) => value !== undefined);
  if (fields.length === 0) return;
  await conditionally(
    dynamoDb().send(
      new UpdateCommand({
        TableName: config().tableName,
        Key: userKey(principalId),
        UpdateExpression: `SET ${fields.map((_, i) => `#f${i} = :f${i}`).join(', ')}`,
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeNames: Object.fromEntries(fields.map(([name], i) => [`#f${i}`, name])),
        ExpressionAttributeValues: Object.fromEntries(fields.map(([, value], i) => [`:f${i}`, value])),
      }),
    ),
    () => noUser(principalId),
  );
}

/**
 * Grants (or replaces) a role: on the user item, where every permission check finds it, and under the
 * node, where the node's grants are listed. Both change together or not at all.
 */
export async function putGrant(
  grant: GrantRecord,
  node: { nodeType: string; ancestorIds?: string[] | undefined },
): Promise<void> {
  forgetSessionsOf(grant.principalId);
  const TableName = config().tableName;
  await conditionally(
    dynamoDb().send(
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
              Item: grants.toItem({
                ...grant,
                nodeType: node.nodeType,
                nodeAncestorIds: node.ancestorIds ?? [],
              }),
            },
          },
        ],
      }),
    ),
    (failed) => (failed.includes(0) ? noUser(grant.principalId) : undefined),
  );
}

export async function deleteGrant(nodeId: string, principalId: string): Promise<void> {
  forgetSessionsOf(principalId);
  const TableName = config().tableName;
  await conditionally(
    dynamoDb().send(
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
    ),
    (failed) =>
      failed.includes(0)
        ? new NotFoundError('GRANT_NOT_FOUND', `User ${principalId} holds no role on ${nodeId}`)
        : undefined,
  );
}

/** A page of the roles granted on a node (at most `limit`), and where the next page starts. */
export async function listGrantsPage(
  nodeId: string,
  limit: number,
  after?: string,
): Promise<{ grants: GrantRecord[]; next?: string }> {
  const page = await queryPage({ partition: grantKey(nodeId, '').PK, sortKeyPrefix: GRANT_PREFIX }, limit, {
    consistent: true,
    ...(after ? { after } : {}),
  });
  const records = page.items.map((item): GrantRecord => {
    const { nodeType: _type, nodeAncestorIds: _ancestors, ...grant } = grants.fromItem(item);
    return grant;
  });
  return { grants: records, ...(page.next ? { next: page.next } : {}) };
}
