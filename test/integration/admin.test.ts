import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findUser } from '#shared/data/user-repository.ts';
import { createNode, defaultEnvironmentId, folder } from './helpers/library.ts';
import { createUser, grant, PASSWORD } from './helpers/personas.ts';
import { type ApiClient, startTestStack, type TestStack, tableClient } from './helpers/test-stack.ts';

let ctx: TestStack;
let api: ApiClient;
let admin: string;
const LIST = '/api/v1/list?nodeType=ENVIRONMENT';

beforeAll(async () => {
  ctx = await startTestStack();
  api = ctx.api;
  admin = await api.login();
});
afterAll(() => ctx.close());

const claims = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64url').toString());

describe('users', () => {
  it('lists users as principals with roles and status, never a password hash', async () => {
    await createUser(api, admin, 'zoe');
    await createUser(api, admin, 'bob');
    const page = await api.call('GET', '/api/v1/admin/users?pageSize=10', { token: admin });
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ sortKey: 'username', order: 'ASC', pageSize: 10, currentPage: 1 });
    const usernames = page.body.results.map((u: { username: string }) => u.username);
    expect(usernames).toEqual([...usernames].sort());
    expect(page.text).not.toMatch(/passwordHash|scrypt/);
    const adminUser = page.body.results.find((u: { username: string }) => u.username === 'admin');
    expect(adminUser).toMatchObject({ roles: ['SYSTEM_ADMINISTRATOR'], status: 'ACTIVE', email: null });
  });

  it('refuses a taken username (409) and weak input (400 naming the field)', async () => {
    await createUser(api, admin, 'carol');
    const taken = await api.call('POST', '/api/v1/admin/users', {
      token: admin,
      body: { username: 'CAROL', password: PASSWORD },
    });
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe('USERNAME_TAKEN');
    const weak = await api.call('POST', '/api/v1/admin/users', {
      token: admin,
      body: { username: 'x', password: 'short' },
    });
    expect(weak.status).toBe(400);
    expect(weak.body.errors.map((e: { path: string }) => e.path).sort()).toEqual([
      '$.password',
      '$.username',
    ]);
  });

  it('disabling a user ends their sessions at once and stops their logins', async () => {
    const id = await createUser(api, admin, 'dave');
    const token = await api.login('dave', PASSWORD);
    expect((await api.call('GET', LIST, { token })).status).toBe(200);
    const disabled = await api.call('PATCH', `/api/v1/admin/users/${id}`, {
      token: admin,
      body: { status: 'DISABLED' },
    });
    expect(disabled.body.status).toBe('DISABLED');
    expect((await api.call('GET', LIST, { token })).status).toBe(401);
    expect(
      (await api.call('POST', '/api/v1/login/local', { body: { username: 'dave', password: PASSWORD } }))
        .status,
    ).toBe(401);
    await api.call('PATCH', `/api/v1/admin/users/${id}`, { token: admin, body: { status: 'ACTIVE' } });
    expect((await api.call('GET', LIST, { token: await api.login('dave', PASSWORD) })).status).toBe(200);
  });

  it('walks the users a page at a time: each once, in username order, the total exact on the last page', async () => {
    for (const name of ['walk-c', 'walk-a', 'walk-b']) await createUser(api, admin, name);
    const seen: string[] = [];
    let cursor = '';
    let last: { totalRecords: number; totalRecordsExact: boolean } | undefined;
    let usersCursor = '';
    do {
      const page = await api.call(
        'GET',
        `/api/v1/admin/users?pageSize=2${cursor ? `&cursor=${cursor}` : ''}`,
        {
          token: admin,
        },
      );
      expect(page.status).toBe(200);
      expect(page.body.results.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.results.map((u: { username: string }) => u.username));
      cursor = page.body.nextCursor ?? '';
      usersCursor ||= cursor;
      last = page.body;
    } while (cursor);
    expect(seen).toEqual([...new Set(seen)].sort());
    expect(seen).toEqual(expect.arrayContaining(['walk-a', 'walk-b', 'walk-c', 'admin']));
    expect(last).toMatchObject({ totalRecords: seen.length, totalRecordsExact: true });
    const foreign = await api.call('GET', `/api/v1/admin/sessions?cursor=${usersCursor}`, {
      token: admin,
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.errors[0]).toMatchObject({ path: '$.cursor', rule: 'cursor' });
    const pageNumber = await api.call('GET', '/api/v1/admin/users?currentPage=2', { token: admin });
    expect(pageNumber.status).toBe(400);
  });

  it('an administrator cannot demote or disable themselves (there is always one left)', async () => {
    const self = (
      await api.call('GET', '/api/v1/admin/users?pageSize=1000', { token: admin })
    ).body.results.find((u: { username: string }) => u.username === 'admin');
    for (const body of [{ systemAdmin: false }, { status: 'DISABLED' }]) {
      const refused = await api.call('PATCH', `/api/v1/admin/users/${self.principalId}`, {
        token: admin,
        body,
      });
      expect(refused.status).toBe(409);
      expect(refused.body.code).toBe('CANNOT_LOCK_OUT_SELF');
    }
    expect((await api.call('GET', '/api/v1/admin/users', { token: admin })).status).toBe(200);
  });

  it('a user changes their own password: old one required, other sessions end, this one stays', async () => {
    await createUser(api, admin, 'erin');
    const here = await api.login('erin', PASSWORD);
    const elsewhere = await api.login('erin', PASSWORD);
    const wrong = await api.call('PUT', '/api/v1/users/me/password', {
      token: here,
      body: { oldPassword: 'nope', newPassword: 'brand-new-password' },
    });
    expect(wrong.status).toBe(401);
    const changed = await api.call('PUT', '/api/v1/users/me/password', {
      token: here,
      body: { oldPassword: PASSWORD, newPassword: 'brand-new-password' },
    });
    expect(changed.status).toBe(204);
    expect((await api.call('GET', LIST, { token: here })).status).toBe(200);
    expect((await api.call('GET', LIST, { token: elsewhere })).status).toBe(401);
    await api.login('erin', 'brand-new-password');
    expect(
      (await api.call('POST', '/login/local', { body: { username: 'erin', password: PASSWORD } })).status,
    ).toBe(401);
  });

  it("an administrator's change made while the user changes their own password stays", async () => {
    const id = await createUser(api, admin, 'grace');
    const environmentId = await defaultEnvironmentId(api, admin);
    await grant(api, admin, environmentId, id, 'EDITOR');
    const grace = await api.login('grace', PASSWORD);
    // The password change reads the user, then takes two scrypt runs (about a second) before it writes.
    const ownChange = api.call('PUT', '/api/v1/users/me/password', {
      token: grace,
      body: { oldPassword: PASSWORD, newPassword: 'grace-new-password' },
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const [disabled, revoked] = await Promise.all([
      api.call('PATCH', `/api/v1/admin/users/${id}`, { token: admin, body: { status: 'DISABLED' } }),
      api.call('DELETE', `/api/v1/items/${environmentId}/grants/${id}`, { token: admin }),
    ]);
    expect([disabled.status, revoked.status]).toEqual([200, 204]);
    expect((await ownChange).status).toBe(204);
    const stored = await ctx.stack.run(() => findUser(id));
    expect(stored?.grants).toEqual({});
    expect(stored?.status).toBe('DISABLED');
    expect(
      (
        await api.call('POST', '/login/local', {
          body: { username: 'grace', password: 'grace-new-password' },
        })
      ).status,
    ).toBe(401);
  });
});

describe('the caller’s own user', () => {
  const ME = '/api/v1/users/me';
  const byNode = (grants: { nodeId: string; role: string }[]) =>
    [...grants].sort((a, b) => a.nodeId.localeCompare(b.nodeId));

  it('answers a user their own record as administrators see it: their grants, never a password hash', async () => {
    const environmentId = await defaultEnvironmentId(api, admin);
    const folderId = (await createNode(api, admin, folder(environmentId, 'Mia’s folder'))).nodeId as string;
    const id = await createUser(api, admin, 'mia');
    await grant(api, admin, environmentId, id, 'READER');
    await grant(api, admin, folderId, id, 'EDITOR');
    const mia = await api.login('mia', PASSWORD);

    const me = await api.call('GET', ME, { token: mia });
    expect(me.status, me.text).toBe(200);
    expect(me.headers.get('cache-control')).toBe('no-store');
    expect(me.body).toMatchObject({ principalId: id, username: 'mia', roles: [], status: 'ACTIVE' });
    expect(byNode(me.body.grants)).toEqual(
      byNode([
        { nodeId: environmentId, role: 'READER' },
        { nodeId: folderId, role: 'EDITOR' },
      ]),
    );
    expect(me.text).not.toMatch(/passwordHash|scrypt/);
    const listed = (await api.call('GET', '/api/v1/admin/users?pageSize=1000', { token: admin })).body
      .results;
    expect(me.body).toEqual(listed.find((u: { principalId: string }) => u.principalId === id));
    // A system administrator reads their role the same way.
    expect((await api.call('GET', ME, { token: admin })).body).toMatchObject({
      username: 'admin',
      roles: ['SYSTEM_ADMINISTRATOR'],
    });
  });

  it('shows a revoked grant gone at once, so a sync client can tell whether another grant still covers a subtree', async () => {
    const environmentId = await defaultEnvironmentId(api, admin);
    const folderId = (await createNode(api, admin, folder(environmentId, 'Jack’s folder'))).nodeId as string;
    const id = await createUser(api, admin, 'jack');
    await grant(api, admin, environmentId, id, 'READER');
    await grant(api, admin, folderId, id, 'EDITOR');
    const jack = await api.login('jack', PASSWORD);
    expect((await api.call('GET', ME, { token: jack })).body.grants).toHaveLength(2);
    expect(
      (await api.call('DELETE', `/api/v1/items/${folderId}/grants/${id}`, { token: admin })).status,
    ).toBe(204);
    expect((await api.call('GET', ME, { token: jack })).body.grants).toEqual([
      { nodeId: environmentId, role: 'READER' },
    ]);
  });

  it('answers 401 problem+json without a valid token', async () => {
    for (const token of [undefined, 'garbage']) {
      const response = await api.call('GET', ME, token ? { token } : {});
      expect(response.status).toBe(401);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      expect(response.text).not.toContain('principalId');
    }
  });
});

describe('sessions', () => {
  it('lists live sessions with user, times and client, and ends one: its token is refused next', async () => {
    await createUser(api, admin, 'frank');
    const token = await api.login('frank', PASSWORD);
    const { sid } = claims(token);
    const page = await api.call('GET', '/api/v1/admin/sessions?pageSize=1000', { token: admin });
    const session = page.body.results.find((s: { sessionId: string }) => s.sessionId === sid);
    expect(session).toMatchObject({
      user: { username: 'frank' },
      userAgent: expect.any(String),
      sourceIp: '127.0.0.1',
    });
    expect(session.expiresAt > session.createdAt).toBe(true);
    expect((await api.call('DELETE', `/api/v1/admin/sessions/${sid}`, { token: admin })).status).toBe(204);
    const refused = await api.call('GET', LIST, { token });
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe('SESSION_ENDED');
    expect((await api.call('DELETE', `/api/v1/admin/sessions/${sid}`, { token: admin })).status).toBe(404);
  });
});

describe('the sessions list holds the sessions a token would be accepted for', () => {
  const DAY = 24 * 3600_000;
  const putSettings = (SESSION_TIMEOUT: number, WEBTOKEN_EXPIRES_IN: number) =>
    api.call('PUT', '/api/v1/admin/settings', {
      token: admin,
      body: { SESSION_TIMEOUT, WEBTOKEN_EXPIRES_IN },
    });
  /** Sets a timestamp of a stored session, as time passing would have (no request is made with it). */
  const age = async (token: string, field: 'lastSeenAt' | 'createdAt', msAgo: number) => {
    const { client: table, TableName } = tableClient(ctx.stack);
    await table.send(
      new UpdateCommand({
        TableName,
        Key: { PK: `SESSION#${claims(token).sid}`, SK: 'SESSION' },
        UpdateExpression: 'SET #at = :at',
        ExpressionAttributeNames: { '#at': field },
        ExpressionAttributeValues: { ':at': new Date(Date.now() - msAgo).toISOString() },
      }),
    );
  };
  type Listed = { sessionId: string; createdAt: string; expiresAt: string };
  /** Every session the list shows, walked a page of `pageSize` at a time, and the last page. */
  const walk = async (pageSize = 1000) => {
    const listed: Listed[] = [];
    let cursor = '';
    let last: { totalRecords: number; totalRecordsExact: boolean; results: Listed[] } | undefined;
    do {
      const page = await api.call(
        'GET',
        `/api/v1/admin/sessions?pageSize=${pageSize}${cursor ? `&cursor=${cursor}` : ''}`,
        { token: admin },
      );
      expect(page.status, page.text).toBe(200);
      // A page is empty only at the end of the walk.
      if (page.body.nextCursor) expect(page.body.results.length).toBeGreaterThan(0);
      listed.push(...page.body.results);
      cursor = page.body.nextCursor ?? '';
      last = page.body;
    } while (cursor);
    return { listed, last };
  };
  const listedSession = async (token: string) =>
    (await walk()).listed.find((s) => s.sessionId === claims(token).sid);

  afterAll(async () => {
    await putSettings(30, 1);
  });

  it('leaves out a session idle for longer than the idle timeout in force, before its token is used again', async () => {
    await createUser(api, admin, 'idle-ida');
    const token = await api.login('idle-ida', PASSWORD);
    expect(await listedSession(token)).toBeDefined();
    expect((await putSettings(5, 1)).status).toBe(200);
    // Ten minutes idle: within the default 30, beyond the new 5.
    await age(token, 'lastSeenAt', 10 * 60_000);
    expect(await listedSession(token)).toBeUndefined();
    // As authentication judges it: with the longer timeout back, the session is alive again, and listed.
    expect((await putSettings(30, 1)).status).toBe(200);
    expect(await listedSession(token)).toBeDefined();
    expect((await api.call('GET', LIST, { token })).status).toBe(200);
    await putSettings(5, 1);
    await age(token, 'lastSeenAt', 10 * 60_000);
    const refused = await api.call('GET', LIST, { token });
    expect([refused.status, refused.body.code]).toEqual([401, 'SESSION_ENDED']);
    expect(await listedSession(token)).toBeUndefined();
    await putSettings(30, 1);
  });

  it('shows the end a lowered token lifetime sets, and leaves out a session it has ended', async () => {
    expect((await putSettings(30, 2)).status).toBe(200);
    await createUser(api, admin, 'lowered-lou');
    const token = await api.login('lowered-lou', PASSWORD);
    const older = await api.login('lowered-lou', PASSWORD);
    const before = await listedSession(token);
    expect(Math.floor(Date.parse(before?.expiresAt ?? '') / 1000)).toBe(claims(token).exp);
    expect((await putSettings(30, 1)).status).toBe(200);
    // Issued for two days: the session now ends a day after its login, as authentication enforces.
    const after = await listedSession(token);
    expect(after?.expiresAt).toBe(new Date(Date.parse(after?.createdAt ?? '') + DAY).toISOString());
    expect(Date.parse(after?.expiresAt ?? '')).toBeLessThan(claims(token).exp * 1000);
    // Logged in 25 hours ago: within its token's two days, past the one day in force.
    await age(older, 'createdAt', 25 * 3600_000);
    expect(await listedSession(older)).toBeUndefined();
    const ended = await api.call('GET', LIST, { token: older });
    expect([ended.status, ended.body.code]).toEqual([401, 'SESSION_ENDED']);
  });

  it('walks past ended sessions a page at a time: no empty page before the end, an exact total at it', async () => {
    await createUser(api, admin, 'walk-wes');
    const tokens: string[] = [];
    for (let i = 0; i < 4; i++) tokens.push(await api.login('walk-wes', PASSWORD));
    expect((await putSettings(5, 1)).status).toBe(200);
    // Two sessions in a row that have idled out (a page of one must read past them).
    await age(tokens[1] as string, 'lastSeenAt', 10 * 60_000);
    await age(tokens[2] as string, 'lastSeenAt', 10 * 60_000);
    const whole = await walk();
    const paged = await walk(1);
    const sids = (listed: Listed[]) => listed.map((s) => s.sessionId);
    expect(sids(paged.listed)).toEqual(sids(whole.listed));
    const mine = sids(paged.listed).filter((sid) => tokens.some((t) => claims(t).sid === sid));
    expect(mine).toEqual([claims(tokens[0] as string).sid, claims(tokens[3] as string).sid]);
    expect(paged.last).toMatchObject({ totalRecords: paged.listed.length, totalRecordsExact: true });
    await putSettings(30, 1);
  });
});

describe('grants', () => {
  it('lists who holds which role on an environment', async () => {
    const environmentId = await defaultEnvironmentId(api, admin);
    const id = await createUser(api, admin, 'gina');
    await grant(api, admin, environmentId, id, 'EDITOR');
    const grants = await api.call('GET', `/api/v1/items/${environmentId}/grants`, { token: admin });
    expect(grants.body.results).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ principalId: id, role: 'EDITOR', nodeId: environmentId }),
      ]),
    );
    const users = await api.call('GET', '/api/v1/admin/users?pageSize=1000', { token: admin });
    expect(users.body.results.find((u: { principalId: string }) => u.principalId === id).grants).toEqual([
      { nodeId: environmentId, role: 'EDITOR' },
    ]);
    expect(
      (await api.call('DELETE', `/api/v1/items/${environmentId}/grants/${id}`, { token: admin })).status,
    ).toBe(204);
    expect(
      (await api.call('DELETE', `/api/v1/items/${environmentId}/grants/${id}`, { token: admin })).status,
    ).toBe(404);
  });

  it('grants roles on environments and folders only', async () => {
    const environmentId = await defaultEnvironmentId(api, admin);
    const detail = await api.call('GET', `/api/v1/items/${environmentId}?detail=true`, { token: admin });
    const id = await createUser(api, admin, 'hank');
    const onRoot = await api.call('PUT', `/api/v1/items/${detail.body.systemRoots.RISK_ROOT}/grants/${id}`, {
      token: admin,
      body: { role: 'READER' },
    });
    expect(onRoot.status).toBe(400);
    expect(onRoot.body.code).toBe('NOT_GRANTABLE');
    const badRole = await api.call('PUT', `/api/v1/items/${environmentId}/grants/${id}`, {
      token: admin,
      body: { role: 'OWNER' },
    });
    expect(badRole.status).toBe(400);
    expect(badRole.body.errors[0].path).toBe('$.role');
  });
});

describe('settings', () => {
  it('answers the defaults, refuses values out of range, and applies a shorter idle timeout to live sessions', async () => {
    expect((await api.call('GET', '/api/v1/admin/settings', { token: admin })).body).toEqual({
      SESSION_TIMEOUT: 30,
      WEBTOKEN_EXPIRES_IN: 1,
    });
    const bad = await api.call('PUT', '/api/v1/admin/settings', {
      token: admin,
      body: { SESSION_TIMEOUT: 0, WEBTOKEN_EXPIRES_IN: 90 },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { path: string }) => e.path).sort()).toEqual([
      '$.SESSION_TIMEOUT',
      '$.WEBTOKEN_EXPIRES_IN',
    ]);

    await createUser(api, admin, 'ivy');
    const token = await api.login('ivy', PASSWORD);
    const saved = await api.call('PUT', '/api/v1/admin/settings', {
      token: admin,
      body: { SESSION_TIMEOUT: 5, WEBTOKEN_EXPIRES_IN: 1 },
    });
    expect(saved.body).toEqual({ SESSION_TIMEOUT: 5, WEBTOKEN_EXPIRES_IN: 1 });
    // Ten minutes idle: within the default 30, beyond the new 5.
    const { client: table, TableName } = tableClient(ctx.stack);
    await table.send(
      new UpdateCommand({
        TableName,
        Key: { PK: `SESSION#${claims(token).sid}`, SK: 'SESSION' },
        UpdateExpression: 'SET lastSeenAt = :at',
        ExpressionAttributeValues: { ':at': new Date(Date.now() - 10 * 60_000).toISOString() },
      }),
    );
    expect((await api.call('GET', LIST, { token })).status).toBe(401);
    await api.call('PUT', '/api/v1/admin/settings', {
      token: admin,
      body: { SESSION_TIMEOUT: 30, WEBTOKEN_EXPIRES_IN: 1 },
    });
  });

  it('bounds live sessions by a shorter token lifetime from their login, without ending them at once', async () => {
    const put = (days: number) =>
      api.call('PUT', '/api/v1/admin/settings', {
        token: admin,
        body: { SESSION_TIMEOUT: 30, WEBTOKEN_EXPIRES_IN: days },
      });
    expect((await put(2)).status).toBe(200);
    await createUser(api, admin, 'kit');
    const token = await api.login('kit', PASSWORD);
    const older = await api.login('kit', PASSWORD);
    expect((await put(1)).status).toBe(200);
    // Its token was issued for two days: the session goes on, now bounded by one day from its login.
    const still = await api.call('GET', LIST, { token });
    expect(still.status, still.text).toBe(200);
    // A session logged in 25 hours ago (not yet read by this instance, which keeps sessions 5 s) has ended.
    const { client: table, TableName } = tableClient(ctx.stack);
    await table.send(
      new UpdateCommand({
        TableName,
        Key: { PK: `SESSION#${claims(older).sid}`, SK: 'SESSION' },
        UpdateExpression: 'SET createdAt = :at',
        ExpressionAttributeValues: { ':at': new Date(Date.now() - 25 * 3600_000).toISOString() },
      }),
    );
    const ended = await api.call('GET', LIST, { token: older });
    expect([ended.status, ended.body.code]).toEqual([401, 'SESSION_ENDED']);
  });
});
