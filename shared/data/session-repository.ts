/** Server-side sessions that access tokens name. */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoDb } from '#shared/clients/dynamodb.ts';
import { config } from '#shared/config/index.ts';
import { ServiceUnavailableError } from '#shared/domain/errors.ts';
import type { Session, User } from '#shared/domain/user.ts';
import { retryableAsUnavailable } from './dynamo-errors.ts';
import {
  SESSIONS_PARTITION,
  sessionKey,
  sessionsIndexKeys,
  userKey,
  userSessionsIndexKeys,
  userSessionsPartition,
} from './keys.ts';
import { getItem, queryAll } from './reads.ts';
import { GSI1, GSI2, TABLE_SCHEMA } from './table-schema.ts';
import { itemToUser } from './user-repository.ts';

function itemToSession(item: Record<string, unknown>): Session {
  const {
    PK,
    SK,
    GSI1PK,
    GSI1SK,
    GSI2PK,
    GSI2SK,
    entity,
    [TABLE_SCHEMA.ttlAttribute]: _ttl,
    ...session
  } = item;
  return session as unknown as Session;
}

export async function createSession(session: Session): Promise<void> {
  try {
    await dynamoDb().send(
      new PutCommand({
        TableName: config().tableName,
        Item: {
          ...sessionKey(session.sessionId),
          ...userSessionsIndexKeys(session.principalId, session.createdAt),
          ...sessionsIndexKeys(session.createdAt, session.sessionId),
          entity: 'Session',
          ...session,
          [TABLE_SCHEMA.ttlAttribute]: Math.ceil(Date.parse(session.expiresAt) / 1000),
        },
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
  } catch (error) {
    retryableAsUnavailable(error);
  }
}

/**
 * The session and its user in one round trip, both strongly consistent so that a revoked session or
 * a disabled user is refused on the very next request.
 */
export async function findSessionWithUser(
  sessionId: string,
  principalId: string,
): Promise<{ session: Session | null; user: User | null }> {
  const TableName = config().tableName;
  const sessionPk = sessionKey(sessionId).PK;
  try {
    const { Responses, UnprocessedKeys } = await dynamoDb().send(
      new BatchGetCommand({
        RequestItems: {
          [TableName]: { Keys: [sessionKey(sessionId), userKey(principalId)], ConsistentRead: true },
        },
      }),
    );
    if (UnprocessedKeys && Object.keys(UnprocessedKeys).length > 0) {
      throw new ServiceUnavailableError('The data store is busy; retry the request');
    }
    const items = Responses?.[TableName] ?? [];
    const sessionItem = items.find((i) => i.PK === sessionPk);
    const userItem = items.find((i) => i.PK !== sessionPk);
    return {
      session: sessionItem ? itemToSession(sessionItem) : null,
      user: userItem ? itemToUser(userItem) : null,
    };
  } catch (error) {
    if (error instanceof ServiceUnavailableError) throw error;
    return retryableAsUnavailable(error);
  }
}

/** Sets one timestamp of a live session. Returns false when the session is gone. */
async function stampSession(
  sessionId: string,
  field: 'lastSeenAt' | 'validFrom',
  at: string,
): Promise<boolean> {
  try {
    await dynamoDb().send(
      new UpdateCommand({
        TableName: config().tableName,
        Key: sessionKey(sessionId),
        UpdateExpression: 'SET #field = :at',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeNames: { '#field': field },
        ExpressionAttributeValues: { ':at': at },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    return retryableAsUnavailable(error);
  }
}

/** Records activity for the idle timeout. Returns false when the session is gone. */
export function touchSession(sessionId: string, at: string): Promise<boolean> {
  return stampSession(sessionId, 'lastSeenAt', at);
}

export async function deleteSession(sessionId: string): Promise<void> {
  try {
    await dynamoDb().send(new DeleteCommand({ TableName: config().tableName, Key: sessionKey(sessionId) }));
  } catch (error) {
    retryableAsUnavailable(error);
  }
}

/** Every session in the table (expired ones until TTL removes them), oldest first. */
export async function listSessions(): Promise<Session[]> {
  const index = GSI2;
  return (await queryAll(index.partitionKey, SESSIONS_PARTITION, { indexName: index.indexName })).map(
    itemToSession,
  );
}

/** Ends every session of a user, except `keep` (the caller's own, when they change their password). */
export async function deleteSessionsOf(principalId: string, keep?: string): Promise<void> {
  const index = GSI1;
  const sessions = await queryAll(index.partitionKey, userSessionsPartition(principalId), {
    indexName: index.indexName,
  });
  for (const session of sessions.map(itemToSession)) {
    if (session.sessionId !== keep) await deleteSession(session.sessionId);
  }
}

export async function findSession(sessionId: string): Promise<Session | null> {
  const item = await getItem(sessionKey(sessionId));
  return item ? itemToSession(item) : null;
}

/** Marks a session as confirmed at `at` (it survives a password change made in it). */
export async function confirmSession(sessionId: string, at: string): Promise<void> {
  await stampSession(sessionId, 'validFrom', at);
}
