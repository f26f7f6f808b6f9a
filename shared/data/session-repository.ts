/** Server-side sessions that access tokens name. */

import { BatchGetCommand, DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { forgetSession, forgetSessionsOf } from '#shared/auth/session-checks.ts';
import { dynamoDb } from '#shared/clients/dynamodb.ts';
import { config } from '#shared/config/index.ts';
import { ServiceUnavailableError } from '#shared/domain/errors.ts';
import type { Session, User } from '#shared/domain/user.ts';
import { writtenIfHeld } from './conditional-writes.ts';
import { sessions, users } from './entities/users.ts';
import { type PartitionQuery, positionOf, queryPage } from './keyed-pages.ts';
import { SESSIONS_PARTITION, sessionKey, userKey, userSessionsPartition } from './keys.ts';
import { getItem, queryAll } from './reads.ts';
import { GSI1, GSI2 } from './table-schema.ts';

export async function createSession(session: Session): Promise<void> {
  await dynamoDb().send(
    new PutCommand({
      TableName: config().tableName,
      Item: sessions.toItem(session),
      ConditionExpression: 'attribute_not_exists(PK)',
    }),
  );
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
    session: sessionItem ? sessions.fromItem(sessionItem) : null,
    user: userItem ? users.fromItem(userItem) : null,
  };
}

/** Sets one timestamp of a live session. Returns false when the session is gone. */
function stampSession(sessionId: string, field: 'lastSeenAt' | 'validFrom', at: string): Promise<boolean> {
  return writtenIfHeld(
    dynamoDb().send(
      new UpdateCommand({
        TableName: config().tableName,
        Key: sessionKey(sessionId),
        UpdateExpression: 'SET #field = :at',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeNames: { '#field': field },
        ExpressionAttributeValues: { ':at': at },
      }),
    ),
  );
}

/** Records activity for the idle timeout. Returns false when the session is gone. */
export function touchSession(sessionId: string, at: string): Promise<boolean> {
  return stampSession(sessionId, 'lastSeenAt', at);
}

export async function deleteSession(sessionId: string): Promise<void> {
  forgetSession(sessionId);
  await dynamoDb().send(new DeleteCommand({ TableName: config().tableName, Key: sessionKey(sessionId) }));
}

const SESSIONS_IN_LOGIN_ORDER: PartitionQuery = { partition: SESSIONS_PARTITION, index: GSI2 };

/**
 * A page of the stored sessions, oldest login first: at most `limit` are read, each with the position just
 * after it, and where the next page starts. Ended sessions that are not yet deleted (TTL removes them
 * late, an idle one is deleted when its token is next used) are among them: whether a session is alive
 * needs the settings and its user (domain/session-life.ts), so the caller leaves them out, and resumes
 * after the last one it showed (its `position`).
 */
export async function storedSessionsPage(
  limit: number,
  after?: string,
): Promise<{ entries: { session: Session; position: string }[]; next?: string }> {
  const page = await queryPage(SESSIONS_IN_LOGIN_ORDER, limit, after ? { after } : {});
  return {
    entries: page.items.map((item) => ({
      session: sessions.fromItem(item),
      position: positionOf(item, SESSIONS_IN_LOGIN_ORDER),
    })),
    ...(page.next ? { next: page.next } : {}),
  };
}

/** Ends every session of a user, except `keep` (the caller's own, when they change their password). */
export async function deleteSessionsOf(principalId: string, keep?: string): Promise<void> {
  forgetSessionsOf(principalId);
  const items = await queryAll(GSI1.partitionKey, userSessionsPartition(principalId), {
    indexName: GSI1.indexName,
  });
  for (const session of items.map(sessions.fromItem)) {
    if (session.sessionId !== keep) await deleteSession(session.sessionId);
  }
}

export async function findSession(sessionId: string): Promise<Session | null> {
  const item = await getItem(sessionKey(sessionId));
  return item ? sessions.fromItem(item) : null;
}

/** Marks a session as confirmed at `at` (it survives a password change made in it). */
export async function confirmSession(sessionId: string, at: string): Promise<void> {
  await stampSession(sessionId, 'validFrom', at);
}
