/** Abuse resistance: login throttling, cross-site cookie requests, and the CORS allow-list. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_THROTTLE } from '#shared/domain/login-throttle.ts';
import { createUser, PASSWORD } from './helpers/personas.ts';
import { ADMIN, type ApiClient, startTestStack, type TestStack } from './helpers/test-stack.ts';

const PORTAL = 'https://portal.example.com';
let ctx: TestStack;
let api: ApiClient;
let admin: string;

beforeAll(async () => {
  ctx = await startTestStack({ corsOrigins: [PORTAL] });
  api = ctx.api;
  admin = await api.login();
});
afterAll(() => ctx.close());

const attempt = (username: string, password: string) =>
  api.call('POST', '/api/v1/login/local', { body: { username, password } });

describe('login throttling', () => {
  it('refuses a username with 429 and Retry-After after 5 failures, even with the right password', async () => {
    await createUser(api, admin, 'target');
    for (let i = 0; i < 5; i++) expect((await attempt('target', 'wrong-password')).status).toBe(401);
    const throttled = await attempt('target', PASSWORD);
    expect(throttled.status).toBe(429);
    expect(throttled.body.code).toBe('TOO_MANY_LOGIN_ATTEMPTS');
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(800);
    // Others are not locked out by it.
    await createUser(api, admin, 'bystander');
    expect((await attempt('bystander', PASSWORD)).status).toBe(302);
  });

  it('counts a wrong old password in a password change as a failed login: a session cannot guess at will', async () => {
    await createUser(api, admin, 'session-holder');
    const token = await api.login('session-holder', PASSWORD);
    const change = (oldPassword: string) =>
      api.call('PUT', '/api/v1/users/me/password', {
        token,
        body: { oldPassword, newPassword: 'a-new-long-password' },
      });
    for (let i = 0; i < 5; i++) expect((await change(`guess-${i}`)).status).toBe(401);
    const throttled = await change(PASSWORD);
    expect(throttled.status).toBe(429);
    expect(throttled.body.code).toBe('TOO_MANY_LOGIN_ATTEMPTS');
    expect((await attempt('session-holder', PASSWORD)).status).toBe(429);
  });

  it('throttles unknown usernames the same way, so it tells nothing about which exist', async () => {
    for (let i = 0; i < 5; i++) expect((await attempt('ghost', 'wrong-password')).status).toBe(401);
    expect((await attempt('ghost', 'wrong-password')).status).toBe(429);
  });

  it('a successful login clears the count of its username', async () => {
    await createUser(api, admin, 'forgetful');
    for (let i = 0; i < 4; i++) await attempt('forgetful', 'wrong-password');
    expect((await attempt('forgetful', PASSWORD)).status).toBe(302);
    for (let i = 0; i < 4; i++) expect((await attempt('forgetful', 'wrong-password')).status).toBe(401);
  });
  it('20 failures from one address for other accounts do not refuse a correct password from it', async () => {
    // An office behind one NAT: colleagues mistype, or one of them sprays passwords.
    for (let i = 1; i <= 20; i++)
      expect((await attempt(`colleague-${i}`, 'wrong-password')).status).toBe(401);
    expect((await attempt(ADMIN.username, ADMIN.password)).status).toBe(302);
  });

  it('refuses every username from an address once it reaches 100 failures (a password spray)', async () => {
    // The failures before the limit are counted as logins count them (hashing 100 wrong passwords
    // would take a minute); the last one goes through the login operation.
    const { countFailure, findFailureWindows } = await import('#shared/data/login-failures-repository.ts');
    const source = { kind: 'source', address: '127.0.0.1' } as const;
    const nowSeconds = () => Math.floor(Date.now() / 1000);
    const [window] = await ctx.stack.run(() => findFailureWindows([source]));
    await ctx.stack.run(async () => {
      for (let count = window?.count ?? 0; count < LOGIN_THROTTLE.failuresPerSource - 1; count++) {
        await countFailure(source, nowSeconds(), LOGIN_THROTTLE.windowSeconds);
      }
    });
    expect((await attempt('spray-last', 'wrong-password')).status).toBe(401);
    const refused = await attempt(ADMIN.username, ADMIN.password);
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('TOO_MANY_LOGIN_ATTEMPTS');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('cross-site cookie requests', () => {
  const createEnvironment = (headers: Record<string, string>, token?: string) =>
    api.call('POST', '/api/v1/items', {
      ...(token ? { token } : {}),
      headers,
      body: {
        '@type': 'NodeElement',
        nodeType: 'ENVIRONMENT',
        name: `From ${JSON.stringify(headers).slice(0, 40)}`,
      },
    });

  it('refuses an unsafe cookie-authenticated request from another site (403), changing nothing', async () => {
    const cookie = `access_token=${admin}`;
    const before = (await api.call('GET', '/api/v1/list?nodeType=ENVIRONMENT', { token: admin })).body
      .totalRecords;
    const crossSite = await createEnvironment({
      cookie,
      'sec-fetch-site': 'cross-site',
      origin: 'https://evil.example',
    });
    expect(crossSite.status).toBe(403);
    const otherOrigin = await createEnvironment({ cookie, origin: 'https://evil.example' });
    expect(otherOrigin.status).toBe(403);
    expect(
      (await api.call('GET', '/api/v1/list?nodeType=ENVIRONMENT', { token: admin })).body.totalRecords,
    ).toBe(before);
  });

  it('accepts the same request from this site, from an allowed origin, with Bearer, and reads from anywhere', async () => {
    const cookie = `access_token=${admin}`;
    expect((await createEnvironment({ cookie, 'sec-fetch-site': 'same-origin' })).status).toBe(200);
    expect((await createEnvironment({ cookie, 'sec-fetch-site': 'cross-site', origin: PORTAL })).status).toBe(
      200,
    );
    expect(
      (await createEnvironment({ 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' }, admin))
        .status,
    ).toBe(200);
    const read = await api.call('GET', '/api/v1/list?nodeType=ENVIRONMENT', {
      headers: { cookie, 'sec-fetch-site': 'cross-site' },
    });
    expect(read.status).toBe(200);
  });
});

describe('CORS', () => {
  it('answers preflights and responses for the allowed origin only', async () => {
    const preflight = await fetch(`${ctx.stack.url}/api/v1/items`, {
      method: 'OPTIONS',
      headers: {
        origin: PORTAL,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(PORTAL);
    expect(preflight.headers.get('access-control-allow-credentials')).toBe('true');
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
    const refused = await fetch(`${ctx.stack.url}/api/v1/items`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    const response = await api.call('GET', '/api/v1/list?nodeType=ENVIRONMENT', {
      token: admin,
      headers: { origin: PORTAL },
    });
    expect(response.headers.get('access-control-allow-origin')).toBe(PORTAL);
    expect(response.headers.get('access-control-expose-headers')).toContain('etag');
  });

  it("lets a page ask for part of a file: the download's preflight allows Range and If-Range", async () => {
    const preflight = await fetch(`${ctx.stack.url}/api/v1/document/documents/D1/content`, {
      method: 'OPTIONS',
      headers: {
        origin: PORTAL,
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization, if-range, range',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(PORTAL);
    expect(preflight.headers.get('access-control-allow-headers')?.split(',')).toEqual(
      expect.arrayContaining(['authorization', 'if-range', 'range']),
    );
    // A 204 has no Content-Length (RFC 9110 §8.6).
    expect(preflight.headers.get('content-length')).toBeNull();
  });

  it('says Vary: Origin on every answer, so a shared cache never hands the portal a copy made for another', async () => {
    // The reference is public and cacheable: the copy kept for a request without Origin lacks the CORS headers.
    const reference = '/api/v1/swagger/openapi.json';
    const anonymous = await api.call('GET', reference);
    expect(anonymous.headers.get('cache-control')).toContain('public');
    expect(anonymous.headers.get('access-control-allow-origin')).toBeNull();
    expect(anonymous.headers.get('vary')).toBe('Origin');
    const other = await api.call('GET', reference, { headers: { origin: 'https://evil.example' } });
    expect(other.headers.get('vary')).toBe('Origin');
    const portal = await api.call('GET', reference, { headers: { origin: PORTAL } });
    expect(portal.headers.get('access-control-allow-origin')).toBe(PORTAL);
    expect(portal.headers.get('vary')).toBe('Origin');
    // Problems too, and the preflight refused to another origin.
    const problem = await api.call('GET', '/api/v1/list', { headers: { origin: PORTAL } });
    expect(problem.status).toBe(401);
    expect(problem.headers.get('vary')).toBe('Origin');
    const refused = await fetch(`${ctx.stack.url}/api/v1/items`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(refused.headers.get('vary')).toBe('Origin');
  });
});
