/**
 * The administrators' lists read a page at a time: one Query of at most pageSize items per page (and, for
 * sessions, one batch read of their users; more where ended sessions are left out), resumed right after
 * the last entry shown; a cursor that does not name a position in that list is refused before DynamoDB
 * is asked.
 */
import { BatchGetCommand, DynamoDBDocumentClient, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
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
beforeEach(() => {
  ddb.reset();
  // No saved settings: the defaults (30 minutes idle, 1 day lifetime).
  ddb.on(GetCommand).resolves({});
});
/** A minute after sampleSession's last use. */
const now = new Date('2026-11-22T12:00:00.000Z');

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

    const page = await sessionsPage(admin, { pageSize: 1 }, now);
    expect(page.results.map((s) => s.sessionId)).toEqual(['S1']);
    expect(page).toMatchObject({ totalRecords: 2, totalRecordsExact: false, currentPage: 1 });
    const [query] = ddb.commandCalls(QueryCommand);
    expect(query?.args[0].input).toMatchObject({ IndexName: 'GSI2', Limit: 1 });

    const next = await sessionsPage(admin, { pageSize: 1, cursor: page.nextCursor as string }, now);
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

  /** Answers each batch read with the users it asks for, as `byId` has them. */
  const usersAre = (byId: Record<string, ReturnType<typeof sampleUser>>) =>
    ddb.on(BatchGetCommand).callsFake(({ RequestItems }) => ({
      Responses: Object.fromEntries(
        Object.entries(RequestItems as Record<string, { Keys: { PK: string }[] }>).map(
          ([table, { Keys }]) => [
            table,
            Keys.flatMap(({ PK }) => {
              const user = byId[PK.replace('USER#', '')];
              return user ? [users.toItem(user)] : [];
            }),
          ],
        ),
      ),
    }));
  const requestedUsers = () =>
    ddb
      .commandCalls(BatchGetCommand)
      .flatMap((call) => Object.values(call.args[0].input.RequestItems ?? {}))
      .flatMap((request) => (request.Keys ?? []).map((key) => key.PK));

  it('shows the sessions a token would be accepted for now, each with the end authentication enforces', async () => {
    const stored = [
      sampleSession({ sessionId: 'LIVE' }),
      // 40 minutes idle, past the 30 of the settings in force.
      sampleSession({ sessionId: 'IDLE', principalId: 'U5', lastSeenAt: '2026-11-22T11:20:00.000Z' }),
      // Issued for two days 25 hours ago: the one day in force has ended it.
      sampleSession({
        sessionId: 'LOWERED',
        principalId: 'U6',
        createdAt: '2026-11-21T11:00:00.000Z',
        expiresAt: '2026-11-23T11:00:00.000Z',
      }),
      // Issued for two days an hour ago: it ends a day after its login.
      sampleSession({ sessionId: 'LONG', expiresAt: '2026-11-24T11:00:00.000Z' }),
      sampleSession({ sessionId: 'DISABLED', principalId: 'U2' }),
      sampleSession({ sessionId: 'BEFORE-PASSWORD', principalId: 'U3' }),
      sampleSession({ sessionId: 'NO-USER', principalId: 'U4' }),
    ];
    ddb.on(QueryCommand).resolves({ Items: stored.map((session) => sessions.toItem(session)) });
    usersAre({
      U1: sampleUser(),
      U2: sampleUser({ principalId: 'U2', username: 'bea', status: 'DISABLED' }),
      U3: sampleUser({ principalId: 'U3', username: 'cid', sessionsValidFrom: '2026-11-22T11:30:00.000Z' }),
      U5: sampleUser({ principalId: 'U5', username: 'dan' }),
      U6: sampleUser({ principalId: 'U6', username: 'eve' }),
    });

    const page = await sessionsPage(admin, { pageSize: 50 }, now);
    expect(page.results.map((s) => [s.sessionId, s.expiresAt])).toEqual([
      ['LIVE', '2026-11-23T11:00:00.000Z'],
      ['LONG', '2026-11-23T11:00:00.000Z'],
    ]);
    expect(page).toMatchObject({ totalRecords: 2, totalRecordsExact: true, nextCursor: null });
    // The users of sessions their own times ended are not read.
    expect(requestedUsers().sort()).toEqual(['USER#U1', 'USER#U2', 'USER#U3', 'USER#U4']);
  });

  it('reads on past ended sessions, and the next page starts right after the last one shown', async () => {
    const idle = (n: number) =>
      sampleSession({
        sessionId: `IDLE${n}`,
        createdAt: `2026-11-22T11:0${n}:00.000Z`,
        lastSeenAt: '2026-11-22T11:00:00.000Z',
      });
    const live = (n: number) =>
      sampleSession({ sessionId: `LIVE${n}`, createdAt: `2026-11-22T11:1${n}:00.000Z` });
    const query = ddb.on(QueryCommand);
    // Five reads of one ended session each, then a larger read that finds more than the page takes.
    for (let n = 1; n <= 5; n++) {
      query.resolvesOnce({ Items: [sessions.toItem(idle(n))], LastEvaluatedKey: lastKey(idle(n)) });
    }
    query.resolvesOnce({
      Items: [live(1), live(2)].map((session) => sessions.toItem(session)),
      LastEvaluatedKey: lastKey(live(2)),
    });
    usersAre({ U1: sampleUser() });

    const page = await sessionsPage(admin, { pageSize: 1 }, now);
    expect(page.results.map((s) => s.sessionId)).toEqual(['LIVE1']);
    expect(page).toMatchObject({ totalRecords: 2, totalRecordsExact: false });
    const reads = ddb.commandCalls(QueryCommand).map((call) => call.args[0].input);
    expect(reads.map((input) => input.Limit)).toEqual([1, 1, 1, 1, 1, 2]);
    expect(reads.every((input) => input.FilterExpression === undefined)).toBe(true);

    ddb.resetHistory();
    ddb.on(QueryCommand).resolves({ Items: [sessions.toItem(live(2))] });
    const next = await sessionsPage(admin, { pageSize: 1, cursor: page.nextCursor as string }, now);
    expect(ddb.commandCalls(QueryCommand)[0]?.args[0].input.ExclusiveStartKey).toEqual(lastKey(live(1)));
    expect(next.results.map((s) => s.sessionId)).toEqual(['LIVE2']);
    expect(next).toMatchObject({
      totalRecords: 2,
      totalRecordsExact: true,
      nextCursor: null,
      currentPage: 2,
    });
  });

  it('a page with only ended sessions to read is empty only at the end', async () => {
    ddb.on(QueryCommand).resolves({
      Items: [sessions.toItem(sampleSession({ lastSeenAt: '2026-11-22T11:00:00.000Z' }))],
    });
    usersAre({ U1: sampleUser() });
    const page = await sessionsPage(admin, {}, now);
    expect(page).toMatchObject({ results: [], totalRecords: 0, totalRecordsExact: true, nextCursor: null });
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
