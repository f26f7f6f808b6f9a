/** Session checks that need a clock or a lagging index, which the integration tests cannot arrange. */
import { BatchGetCommand, DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { sessions, users } from '#shared/data/entities.ts';
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

const { authenticate } = await import('#shared/services/auth-service.ts');
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
