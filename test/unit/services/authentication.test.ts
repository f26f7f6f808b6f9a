/** Session checks that need a clock or a lagging index, which the integration tests cannot arrange. */
import {
  BatchGetCommand,
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { forgetSessionsOf } from '#shared/auth/session-checks.ts';
import { sessions, users } from '#shared/data/entities/users.ts';
import { UnauthenticatedError } from '#shared/domain/errors.ts';
import type { Session, User } from '#shared/domain/user.ts';
import { sampleSession, sampleUser } from '../../fixtures/users.ts';

vi.mock('#shared/auth/access-tokens.ts', () => ({
  verifyAccessToken: async () => ({
    principalId: 'U1',
    sessionId: 'S1',
    username: 'ann',
    issuedAt: Date.parse('2026-11-22T11:00:00.000Z') / 1000,
    expiresAt: Date.parse('2026-11-23T11:00:00.000Z') / 1000,
  }),
  requireLifetimeWithin: () => undefined,
}));

const { authenticate, logout } = await import('#shared/services/authentication.ts');
const ddb = mockClient(DynamoDBDocumentClient);
const now = new Date('2026-11-22T12:00:00.000Z');

function store(session: Partial<Session>, user: Partial<User>) {
  ddb.on(BatchGetCommand).resolves({
    Responses: {
      'unit-test-table': [sessions.toItem(sampleSession(session)), users.toItem(sampleUser(user))],
    },
  });
}

beforeEach(() => {
  // Each test starts on an instance that remembers no session check.
  forgetSessionsOf('U1');
  ddb.reset();
  ddb.on(GetCommand).resolves({});
  ddb.on(UpdateCommand).resolves({});
});

describe('authenticate', () => {
  it('accepts a live session of an active user', async () => {
    store({}, {});
    expect((await authenticate('token', now)).principal.username).toBe('ann');
  });

  it('ends sessions from before a password change, even if the session index never showed them', async () => {
    store({}, { sessionsValidFrom: '2026-11-22T11:30:00.000Z' });
    await expect(authenticate('token', now)).rejects.toBeInstanceOf(UnauthenticatedError);
  });

  it('keeps the session the password was changed in', async () => {
    store({ validFrom: '2026-11-22T11:30:00.000Z' }, { sessionsValidFrom: '2026-11-22T11:30:00.000Z' });
    expect((await authenticate('token', now)).sessionId).toBe('S1');
  });
});

describe('session checks a warm instance remembers (SESSION_RECHECK_SECONDS, 5 by default)', () => {
  const later = (ms: number) => new Date(now.getTime() + ms);
  const reads = () => ddb.commandCalls(BatchGetCommand).length;

  it('reads the session once for a burst of requests, and again once the bound has passed', async () => {
    store({}, {});
    await authenticate('token', now);
    await authenticate('token', later(1_000));
    await authenticate('token', later(4_999));
    expect(reads()).toBe(1);
    await authenticate('token', later(5_000));
    expect(reads()).toBe(2);
  });

  it('sees a revocation made elsewhere within the bound, not before: that is the documented delay', async () => {
    store({}, {});
    await authenticate('token', now);
    // Another instance deletes the session: this one has not heard of it.
    ddb.on(BatchGetCommand).resolves({ Responses: { 'unit-test-table': [users.toItem(sampleUser({}))] } });
    expect((await authenticate('token', later(4_000))).sessionId).toBe('S1');
    await expect(authenticate('token', later(5_000))).rejects.toBeInstanceOf(UnauthenticatedError);
  });

  it('forgets at once what the instance itself ends (logout), and a disabled user on its next read', async () => {
    store({}, {});
    const caller = await authenticate('token', now);
    ddb.on(DeleteCommand).resolves({});
    await logout(caller);
    ddb.on(BatchGetCommand).resolves({ Responses: { 'unit-test-table': [users.toItem(sampleUser({}))] } });
    await expect(authenticate('token', later(100))).rejects.toBeInstanceOf(UnauthenticatedError);
  });

  it('still runs the time checks on what it remembers: a lifetime that ends inside the bound ends the session', async () => {
    store({ expiresAt: later(2_000).toISOString() }, {});
    ddb.on(DeleteCommand).resolves({});
    await authenticate('token', now);
    await expect(authenticate('token', later(2_500))).rejects.toBeInstanceOf(UnauthenticatedError);
    expect(reads()).toBe(1);
  });
});
