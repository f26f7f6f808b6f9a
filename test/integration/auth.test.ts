import { type DynamoDBDocumentClient, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN,
  type ApiClient,
  cookieValue,
  startTestStack,
  type TestStack,
  tableClient,
} from './helpers/test-stack.ts';

let ctx: TestStack;
let api: ApiClient;
let table: DynamoDBDocumentClient;
let TableName: string;

beforeAll(async () => {
  ctx = await startTestStack();
  api = ctx.api;
  ({ client: table, TableName } = tableClient(ctx.stack));
});
afterAll(() => ctx.close());

/** Moves a session's clock: sets lastSeenAt / expiresAt as if time had passed. */
async function ageSession(token: string, fields: { lastSeenAt?: string; expiresAt?: string }) {
  const sid = JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64url').toString()).sid;
  const names = Object.keys(fields);
  await table.send(
    new UpdateCommand({
      TableName,
      Key: { PK: `SESSION#${sid}`, SK: 'SESSION' },
      UpdateExpression: `SET ${names.map((n) => `${n} = :${n}`).join(', ')}`,
      ExpressionAttributeValues: Object.fromEntries(
        names.map((n) => [`:${n}`, fields[n as keyof typeof fields]]),
      ),
    }),
  );
}

const LIST = '/api/v1/list?nodeType=ENVIRONMENT';

describe('login', () => {
  for (const path of ['/api/v1/login/local', '/login/local']) {
    it(`${path} answers 302 to / with no-store and the two cookies`, async () => {
      const response = await api.call('POST', path, { body: ADMIN });
      expect(response.status).toBe(302);
      expect(response.headers.get('location')).toBe('/');
      expect(response.headers.get('cache-control')).toBe('no-store');
      const cookies = response.headers.getSetCookie();
      expect(cookies).toHaveLength(2);
      const loginSuccess = cookies.find((c) => c.startsWith('loginsuccess=')) as string;
      const accessToken = cookies.find((c) => c.startsWith('access_token=')) as string;
      expect(loginSuccess).toMatch(/^loginsuccess=true; Path=\/; Max-Age=\d+; SameSite=Lax$/);
      expect(accessToken).toMatch(
        /^access_token=[\w-]+\.[\w-]+\.[\w-]+; Path=\/; Max-Age=\d+; SameSite=Lax; HttpOnly$/,
      );
      const header = JSON.parse(
        Buffer.from(
          (cookieValue(response.headers, 'access_token') as string).split('.')[0] as string,
          'base64url',
        ).toString(),
      );
      expect(header).toMatchObject({ alg: 'ES256', typ: 'JWT' });
    });
  }

  it('refuses an access_token cookie that is not well-formed percent-encoding with 401, not a crash', async () => {
    const response = await api.call('GET', LIST, { headers: { cookie: 'access_token=%E0%A4%A' } });
    expect(response.status).toBe(401);
    expect(response.body.code).toBe('INVALID_TOKEN');
    const other = await api.call('GET', LIST, {
      headers: { cookie: `theme=%E0%A4%A; access_token=${await api.login()}` },
    });
    expect(other.status).toBe(200);
  });

  it('marks cookies Secure when the client came over https', async () => {
    const response = await api.call('POST', '/login/local', {
      body: ADMIN,
      headers: { 'x-forwarded-proto': 'https' },
    });
    for (const cookie of response.headers.getSetCookie()) expect(cookie).toMatch(/; Secure$/);
  });

  it('answers 401 problem+json and sets no cookie for a wrong password or an unknown user', async () => {
    for (const body of [
      { ...ADMIN, password: 'not-the-password' },
      { username: 'nobody', password: 'whatever' },
    ]) {
      const response = await api.call('POST', '/api/v1/login/local', { body });
      expect(response.status).toBe(401);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      expect(response.headers.getSetCookie()).toEqual([]);
      expect(response.body).toMatchObject({ code: 'INVALID_CREDENTIALS', status: 401 });
    }
  });

  it('validates the login body', async () => {
    const response = await api.call('POST', '/api/v1/login/local', { body: { username: 'admin' } });
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([expect.objectContaining({ path: '$.password', rule: 'required' })]);
  });
});

describe('authentication of every other route', () => {
  it('accepts the token as a Bearer header or as the access_token cookie', async () => {
    const token = await api.login();
    expect((await api.call('GET', LIST, { token })).status).toBe(200);
    expect(
      (await api.call('GET', LIST, { headers: { cookie: `loginsuccess=true; access_token=${token}` } }))
        .status,
    ).toBe(200);
  });

  it('answers 401 problem+json without a token, or with a forged or garbled one', async () => {
    const none = await api.call('GET', LIST);
    expect(none.status).toBe(401);
    expect(none.body.code).toBe('UNAUTHENTICATED');
    expect(none.headers.get('www-authenticate')).toContain('Bearer');

    const token = await api.login();
    const [header, payload] = token.split('.') as [string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const forgedPayload = Buffer.from(JSON.stringify({ ...claims, sub: 'someone-else' })).toString(
      'base64url',
    );
    const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`;
    for (const bad of [`${header}.${forgedPayload}.${token.split('.')[2]}`, unsigned, 'garbage']) {
      const response = await api.call('GET', LIST, { token: bad });
      expect(response.status).toBe(401);
      expect(response.body.code).toBe('INVALID_TOKEN');
    }
  });

  it('ends the session on logout: the same token is refused on the very next request', async () => {
    const token = await api.login();
    const other = await api.login();
    const logout = await api.call('POST', '/api/v1/logout', { token });
    expect(logout.status).toBe(204);
    expect(logout.headers.getSetCookie().every((c) => c.includes('Max-Age=0'))).toBe(true);
    const after = await api.call('GET', LIST, { token });
    expect(after.status).toBe(401);
    expect(after.body.code).toBe('SESSION_ENDED');
    expect((await api.call('GET', LIST, { token: other })).status).toBe(200);
  });

  it('enforces the idle timeout on every request', async () => {
    const token = await api.login();
    await ageSession(token, { lastSeenAt: new Date(Date.now() - 31 * 60_000).toISOString() });
    const response = await api.call('GET', LIST, { token });
    expect(response.status).toBe(401);
    expect(response.body.detail).toContain('idle');
  });

  it('enforces the absolute lifetime of the session on every request', async () => {
    const token = await api.login();
    await ageSession(token, { expiresAt: new Date(Date.now() - 1000).toISOString() });
    const response = await api.call('GET', LIST, { token });
    expect(response.status).toBe(401);
    expect(response.body.detail).toContain('lifetime');
  });

  it('records activity so that a session in use stays alive', async () => {
    const token = await api.login();
    const twoMinutesAgo = new Date(Date.now() - 2 * 60_000).toISOString();
    await ageSession(token, { lastSeenAt: twoMinutesAgo });
    expect((await api.call('GET', LIST, { token })).status).toBe(200);
    const sid = JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64url').toString()).sid;
    const { Items } = await table.send(
      new QueryCommand({
        TableName,
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': `SESSION#${sid}` },
      }),
    );
    expect(Items?.[0]?.lastSeenAt > twoMinutesAgo).toBe(true);
  });
});

describe('forged tokens signed with the installation’s own key are still refused', () => {
  it('expired, wrong issuer, wrong audience, alg none, HS256 with the public key, no exp, exp ten years ahead: 401', async () => {
    const { createHmac, createPrivateKey, createPublicKey, sign } = await import('node:crypto');
    const { readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const key = createPrivateKey(readFileSync(join(ctx.dataDir, 'token-signing-key.pem')));
    const genuine = await api.login();
    const [headerPart, payloadPart] = genuine.split('.') as [string, string];
    const header = JSON.parse(Buffer.from(headerPart, 'base64url').toString());
    const claims = JSON.parse(Buffer.from(payloadPart, 'base64url').toString());
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const es256 = (h: object, c: object) => {
      const input = `${b64(h)}.${b64(c)}`;
      return `${input}.${sign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
    };
    const now = Math.floor(Date.now() / 1000);
    // The genuine token re-signed as is passes: the refusals below are for the reason each names.
    expect((await api.call('GET', LIST, { token: es256(header, claims) })).status).toBe(200);
    const hsInput = `${b64({ ...header, alg: 'HS256' })}.${b64(claims)}`;
    const publicPem = createPublicKey(key).export({ format: 'pem', type: 'spki' });
    const forged = [
      es256(header, { ...claims, iat: now - 7200, exp: now - 60 }),
      es256(header, { ...claims, iss: 'someone-else' }),
      es256(header, { ...claims, aud: 'another-api' }),
      `${b64({ ...header, alg: 'none' })}.${b64(claims)}.`,
      `${hsInput}.${createHmac('sha256', publicPem).update(hsInput).digest('base64url')}`,
      // A token's own lifetime never exceeds WEBTOKEN_EXPIRES_IN (one day here), however it is signed.
      es256(header, (({ exp: _exp, ...rest }) => rest)(claims)),
      es256(header, { ...claims, exp: now + 10 * 365 * 24 * 3600 }),
    ];
    for (const token of forged) {
      const response = await api.call('GET', LIST, { token });
      expect(response.status).toBe(401);
      expect(response.body.code).toBe('INVALID_TOKEN');
    }
  });
});
