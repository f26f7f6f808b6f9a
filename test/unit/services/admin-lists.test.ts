/**
 * The administrators' lists read a page at a time: one Query of at most pageSize items per page (and, for
 * sessions, one batch read of their users), resumed where the last one ended; a cursor that does not
 * name a position in that list is refused before DynamoDB is asked.
 */
import { BatchGetCommand, DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { sessions, users } from '#shared/data/entities/users.ts';
import { ValidationError } from '#shared/domain/errors.ts';
import { encodeCursor, queryFingerprint } from '#shared/domain/list-cursor.ts';
import { type Caller, toPrincipal } from '#shared/domain/user.ts';
import { sessionsPage } from '#shared/services/session-admin-service.ts';
import { usersPage } from '#shared/services/user-admin-service.ts';
import { sampleSession, sampleUser } from '../../fixtures/users.ts';

const ddb = mockClient(DynamoDBDocumentClient);
beforeEach(() => ddb.reset());

const admin: Caller = {
  principal: toPrincipal(sampleUser({ principalId: 'A1', username: 'admin' })),
  sessionId: 'S0',
  systemAdmin: true,
  grants: {},
};

const lastKey = (session: ReturnType<typeof sampleSession>) => {
  const item = sessions.toItem(session);
  return { PK: item.PK, SK: item.SK, GSI2PK: item.GSI2PK, GSI2SK: item.GSI2SK };
};

describe('sessions list', () => {
  it('reads one page of sessions and their users, and the next page from where it ended', async () => {
    const first = sampleSession({ sessionId: 'S1' });
    const second = sampleSession({ sessionId: 'S2', createdAt: '2026-11-22T11:30:00.000Z' });
    ddb
      .on(QueryCommand)
      .resolvesOnce({ Items: [sessions.toItem(first)], LastEvaluatedKey: lastKey(first) })
      .resolvesOnce({ Items: [sessions.toItem(second)] });
    ddb.on(BatchGetCommand).callsFake(({ RequestItems }) => ({
      Responses: Object.fromEntries(
        Object.keys(RequestItems).map((table) => [table, [users.toItem(sampleUser())]]),
      ),
    }));

    const page = await sessionsPage(admin, { pageSize: 1 });
    expect(page.results.map((s) => s.sessionId)).toEqual(['S1']);
    expect(page).toMatchObject({ totalRecords: 2, totalRecordsExact: false, currentPage: 1 });
    const [query] = ddb.commandCalls(QueryCommand);
    expect(query?.args[0].input).toMatchObject({ IndexName: 'GSI2', Limit: 1 });
    expect(query?.args[0].input.ExpressionAttributeNames).toMatchObject({ '#expires': 'expiresAt' });

    const next = await sessionsPage(admin, { pageSize: 1, cursor: page.nextCursor as string });
    expect(next).toMatchObject({
      totalRecords: 2,
      totalRecordsExact: true,
      currentPage: 2,
      nextCursor: null,
    });
    expect(ddb.commandCalls(QueryCommand)[1]?.args[0].input.ExclusiveStartKey).toEqual(lastKey(first));
    expect(ddb.commandCalls(QueryCommand)).toHaveLength(2);
    expect(ddb.commandCalls(BatchGetCommand)).toHaveLength(2);
  });

  it('refuses a cursor that points outside the sessions partition, without reading', async () => {
    const fingerprint = queryFingerprint({ list: 'sessions', sortKey: 'createdAt' });
    const elsewhere = JSON.stringify({ PK: 'USER#A1', SK: 'PROFILE', GSI2PK: 'USERS', GSI2SK: 'USER#admin' });
    const cursor = encodeCursor({ after: elsewhere, page: 2, seen: 1 }, fingerprint);
    await expect(sessionsPage(admin, { cursor })).rejects.toBeInstanceOf(ValidationError);
    expect(ddb.calls()).toHaveLength(0);
  });
});

describe('users list', () => {
  it('reads at most pageSize users per page', async () => {
    ddb.on(QueryCommand).resolves({ Items: [users.toItem(sampleUser())] });
    const page = await usersPage(admin, { pageSize: 7 });
    expect(ddb.commandCalls(QueryCommand)[0]?.args[0].input).toMatchObject({ IndexName: 'GSI2', Limit: 7 });
    expect(page).toMatchObject({ totalRecords: 1, totalRecordsExact: true, nextCursor: null });
    expect(page.results[0]).not.toHaveProperty('passwordHash');
  });

  it('a cursor of the users list is refused by the sessions list', async () => {
    ddb.on(QueryCommand).resolves({
      Items: [users.toItem(sampleUser())],
      LastEvaluatedKey: { PK: 'USER#U1', SK: 'PROFILE', GSI2PK: 'USERS', GSI2SK: 'USER#ann' },
    });
    const { nextCursor } = await usersPage(admin, { pageSize: 1 });
    await expect(sessionsPage(admin, { cursor: nextCursor as string })).rejects.toBeInstanceOf(
      ValidationError,
    );
  });
});
