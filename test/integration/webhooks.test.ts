/**
 * Webhooks as a receiver and an administrator meet them: changes arrive signed per Standard Webhooks
 * (checked with the `standardwebhooks` library, as a receiver would), failed deliveries are retried on
 * their schedule and parked when it is used up, the delivery log tells what happened and a parked
 * delivery is replayed; endpoints take only their scope, events and node types; the secret rotates with a
 * day of overlap; environment admins manage only their own endpoints; and targets that are not public
 * addresses are refused.
 */
import { Webhook as Verifier } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNode, defaultEnvironmentId, folder, urlDocument } from './helpers/library.ts';
import { createUser, grant, PASSWORD } from './helpers/personas.ts';
import { type ApiClient, startTestStack, type TestStack } from './helpers/test-stack.ts';
import { type Receiver, startReceiver } from './helpers/webhook-receiver.ts';

let ctx: TestStack;
let api: ApiClient;
let admin: string;
let env: string;
let receiver: Receiver;

beforeAll(async () => {
  // Retries after 1 s and 1 s: three attempts, then parked.
  ctx = await startTestStack({
    webhookAllowLoopback: true,
    webhookRetrySeconds: [1, 1],
    queueVisibilitySeconds: 1,
  });
  api = ctx.api;
  admin = await api.login();
  env = await defaultEnvironmentId(api, admin);
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  await ctx.close();
});

const register = async (token: string, body: Record<string, unknown>) =>
  api.call('POST', '/api/v1/webhooks', { token, body });

/** What reached the receiver about `nodeId` (of one type, when given). */
const about = (nodeId: string, type?: string) =>
  receiver.received.filter((r) => r.message.data.nodeId === nodeId && (!type || r.message.type === type));

const deliveries = async (webhookId: string, query = '') =>
  (await api.call('GET', `/api/v1/webhooks/${webhookId}/deliveries${query}`, { token: admin })).body
    .results as any[];

/** Polls the delivery log until `predicate` holds for the delivery of `nodeId`. */
async function deliveryOf(webhookId: string, nodeId: string, predicate: (d: any) => boolean) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const found = (await deliveries(webhookId)).find((d) => d.payload.data.nodeId === nodeId);
    if (found && predicate(found)) return found;
    if (Date.now() > deadline) throw new Error(`delivery of ${nodeId}: ${JSON.stringify(found)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('webhooks', () => {
  let webhookId: string;
  let secret: string;

  it('registers an endpoint and shows its signing secret once', async () => {
    const made = await register(admin, { url: receiver.url, description: 'everything' });
    expect(made.status, made.text).toBe(201);
    expect(made.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(made.body).toMatchObject({ url: receiver.url, events: ['*'], scopeNodeId: null, enabled: true });
    ({ webhookId, secret } = made.body);
    const read = await api.call('GET', `/api/v1/webhooks/${webhookId}`, { token: admin });
    expect(read.status).toBe(200);
    expect(read.body.secret).toBeUndefined();
    // Kept as sent, not as a URL parser would clean it.
    const unclean = `${receiver.url.replace(/\/$/, '')}/tenant/../in`;
    const kept = await register(admin, { url: unclean, enabled: false });
    expect(kept.status, kept.text).toBe(201);
    expect(kept.body.url).toBe(unclean);
    await api.call('DELETE', `/api/v1/webhooks/${kept.body.webhookId}`, { token: admin });
  });

  it('delivers each change signed per Standard Webhooks, with the change as the feed has it', async () => {
    const made = await createNode(api, admin, folder(env, 'Webhook folder'));
    await ctx.stack.backgroundIdle();
    const [arrived] = await receiver
      .until(() => about(made.nodeId, 'node.created').length > 0)
      .then(() => about(made.nodeId, 'node.created'));
    const headers = arrived?.headers ?? {};
    // A receiver's check: the library throws on a bad signature or a stale timestamp.
    const verified = new Verifier(secret).verify(arrived?.body ?? '', {
      'webhook-id': headers['webhook-id'] ?? '',
      'webhook-timestamp': headers['webhook-timestamp'] ?? '',
      'webhook-signature': headers['webhook-signature'] ?? '',
    }) as any;
    expect(verified.data).toMatchObject({
      '@type': 'Change',
      kind: 'CREATED',
      nodeId: made.nodeId,
      nodeVersionId: made.nodeVersionId,
      version: '0.0001',
    });
    expect(headers['webhook-id']).toBe(verified.data.changeId);
    expect(headers['content-type']).toBe('application/json');
    // Tampered, the same message fails the check.
    expect(() =>
      new Verifier(secret).verify(arrived?.body.replace('"CREATED"', '"UPDATED"') ?? '', {
        'webhook-id': headers['webhook-id'] ?? '',
        'webhook-timestamp': headers['webhook-timestamp'] ?? '',
        'webhook-signature': headers['webhook-signature'] ?? '',
      }),
    ).toThrow();
    const log = await deliveryOf(webhookId, made.nodeId, (d) => d.state === 'delivered');
    expect(log).toMatchObject({ attempts: 1, messageId: verified.data.changeId, type: 'node.created' });
    expect(log.log).toEqual([expect.objectContaining({ status: 204, error: null })]);
  });

  it('retries a delivery the endpoint failed, on its schedule, until it gets through', async () => {
    receiver.answerWith(500, 503);
    const made = await createNode(api, admin, folder(env, 'Retried'));
    const delivered = await deliveryOf(webhookId, made.nodeId, (d) => d.state === 'delivered');
    expect(delivered.log.map((a: any) => a.status)).toEqual([500, 503, 204]);
    expect(delivered.attempts).toBe(3);
    // The same message every time: one webhook-id, three arrivals.
    const arrivals = about(made.nodeId, 'node.created');
    expect(arrivals).toHaveLength(3);
    expect(new Set(arrivals.map((a) => a.headers['webhook-id'])).size).toBe(1);
    // Each retry waited its turn (1 s).
    expect((arrivals[1]?.at ?? 0) - (arrivals[0]?.at ?? 0)).toBeGreaterThanOrEqual(900);
  });

  it('parks a delivery whose attempts all failed, counts it on the endpoint, and replays it', async () => {
    receiver.answerWith(500, 500, 500);
    const made = await createNode(api, admin, folder(env, 'Parked'));
    const parked = await deliveryOf(webhookId, made.nodeId, (d) => d.state === 'parked');
    expect(parked.log.map((a: any) => a.status)).toEqual([500, 500, 500]);
    expect(parked.parkedAt).toEqual(expect.any(String));
    const endpoint = await api.call('GET', `/api/v1/webhooks/${webhookId}`, { token: admin });
    expect(endpoint.body.consecutiveFailures).toBe(1);
    const onlyParked = await deliveries(webhookId, '?state=parked');
    expect(onlyParked.map((d) => d.deliveryId)).toEqual([parked.deliveryId]);

    const replayed = await api.call(
      'POST',
      `/api/v1/webhooks/${webhookId}/deliveries/${parked.deliveryId}/replay`,
      { token: admin },
    );
    expect(replayed.status, replayed.text).toBe(202);
    const delivered = await deliveryOf(webhookId, made.nodeId, (d) => d.state === 'delivered');
    expect(delivered.log.map((a: any) => a.status)).toEqual([500, 500, 500, 204]);
    // A replay of what is delivered again is fine; of what is on its way, 409.
    expect(
      (await api.call('GET', `/api/v1/webhooks/${webhookId}`, { token: admin })).body.consecutiveFailures,
    ).toBe(0);
  });

  it('sends an endpoint only its scope, its events and its node types', async () => {
    const scoped = await createNode(api, admin, folder(env, 'Scoped'));
    const elsewhere = await createNode(api, admin, folder(env, 'Elsewhere'));
    const narrow = await startReceiver('/narrow');
    try {
      const made = await register(admin, {
        url: narrow.url,
        scopeNodeId: scoped.nodeId,
        events: ['node.deleted', 'node.published'],
        nodeTypes: ['DOCUMENT'],
      });
      expect(made.status, made.text).toBe(201);
      const inside = await createNode(api, admin, urlDocument(scoped.nodeId, 'Inside'));
      const outside = await createNode(api, admin, urlDocument(elsewhere.nodeId, 'Outside'));
      for (const id of [inside.nodeId, outside.nodeId]) {
        expect((await api.call('DELETE', `/api/v1/items/${id}`, { token: admin })).status).toBe(200);
      }
      await ctx.stack.backgroundIdle();
      await narrow.until((got) => got.length > 0);
      await ctx.stack.backgroundIdle();
      expect(narrow.received.map((r) => [r.message.type, r.message.data.nodeId])).toEqual([
        ['node.deleted', inside.nodeId],
      ]);
      expect(narrow.received[0]?.message.data.parentId).toBe(scoped.nodeId);
    } finally {
      await narrow.close();
    }
  });

  it('names a parent outside the endpoint scope as null, as the feed does for who may not read it', async () => {
    const scoped = await createNode(api, admin, folder(env, 'Scope root'));
    const watcher = await startReceiver('/scope-root');
    try {
      const made = await register(admin, {
        url: watcher.url,
        scopeNodeId: scoped.nodeId,
        events: ['node.updated'],
      });
      expect(made.status, made.text).toBe(201);
      const renamed = await api.call('PUT', `/api/v1/items/${scoped.nodeId}`, {
        token: admin,
        body: {
          ...folder(env, 'Scope root, renamed'),
          nodeId: scoped.nodeId,
          nodeVersionId: scoped.nodeVersionId,
        },
      });
      expect(renamed.status, renamed.text).toBe(200);
      await ctx.stack.backgroundIdle();
      await watcher.until((got) => got.length > 0);
      expect(watcher.received.map((r) => [r.message.data.nodeId, r.message.data.parentId])).toEqual([
        [scoped.nodeId, null],
      ]);
    } finally {
      await watcher.close();
    }
  });

  it('rotates the secret: for a day each message carries a signature with the old and with the new', async () => {
    const rotated = await api.call('POST', `/api/v1/webhooks/${webhookId}/secret`, { token: admin });
    expect(rotated.status, rotated.text).toBe(200);
    expect(rotated.body.secret).not.toBe(secret);
    const made = await createNode(api, admin, folder(env, 'After rotation'));
    const [arrived] = await receiver
      .until(() => about(made.nodeId).length > 0)
      .then(() => about(made.nodeId));
    const headers = {
      'webhook-id': arrived?.headers['webhook-id'] ?? '',
      'webhook-timestamp': arrived?.headers['webhook-timestamp'] ?? '',
      'webhook-signature': arrived?.headers['webhook-signature'] ?? '',
    };
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    for (const key of [secret, rotated.body.secret as string])
      expect(() => new Verifier(key).verify(arrived?.body ?? '', headers)).not.toThrow();
  });

  it('lets an environment admin manage endpoints of what they administer, and nothing else', async () => {
    const folderA = await createNode(api, admin, folder(env, 'Admin-run folder'));
    const envAdminId = await createUser(api, admin, 'webhook-env-admin');
    await grant(api, admin, folderA.nodeId, envAdminId, 'ENVIRONMENT_ADMIN');
    const readerId = await createUser(api, admin, 'webhook-reader');
    await grant(api, admin, folderA.nodeId, readerId, 'READER');
    const envAdmin = await api.login('webhook-env-admin', PASSWORD);
    const reader = await api.login('webhook-reader', PASSWORD);

    const libraryWide = await register(envAdmin, { url: receiver.url });
    expect(libraryWide.status).toBe(403);
    const byReader = await register(reader, { url: receiver.url, scopeNodeId: folderA.nodeId });
    expect(byReader.status).toBe(403);
    const own = await register(envAdmin, { url: receiver.url, scopeNodeId: folderA.nodeId });
    expect(own.status, own.text).toBe(201);

    const listed = await api.call('GET', '/api/v1/webhooks', { token: envAdmin });
    expect(listed.body.results.map((w: any) => w.webhookId)).toEqual([own.body.webhookId]);
    expect((await api.call('GET', `/api/v1/webhooks/${webhookId}`, { token: envAdmin })).status).toBe(404);
    expect((await api.call('DELETE', `/api/v1/webhooks/${webhookId}`, { token: envAdmin })).status).toBe(404);
    const paused = await api.call('PATCH', `/api/v1/webhooks/${own.body.webhookId}`, {
      token: envAdmin,
      body: { enabled: false, events: ['node.*'] },
    });
    expect(paused.status, paused.text).toBe(200);
    expect(paused.body).toMatchObject({ enabled: false, events: ['node.*'], scopeNodeId: folderA.nodeId });
    // The system administrator sees both.
    const all = await api.call('GET', '/api/v1/webhooks', { token: admin });
    expect(all.body.results.map((w: any) => w.webhookId)).toEqual(
      expect.arrayContaining([webhookId, own.body.webhookId]),
    );
    expect(
      (await api.call('DELETE', `/api/v1/webhooks/${own.body.webhookId}`, { token: envAdmin })).status,
    ).toBe(204);
  });

  it('refuses targets that are not public https addresses, naming the field and the rule', async () => {
    for (const url of [
      'https://169.254.169.254/latest/meta-data/',
      'https://10.1.2.3/hook',
      'https://[::ffff:192.168.0.1]/hook',
      'https://user:pass@example.com/hook',
      'ftp://example.com/hook',
      'not a url',
    ]) {
      const refused = await register(admin, { url });
      expect(refused.status, url).toBe(400);
      expect(refused.headers.get('content-type')).toMatch(/problem\+json/);
      expect(refused.body.errors[0]).toMatchObject({ path: '$.url' });
    }
    const noSuchType = await register(admin, { url: receiver.url, nodeTypes: ['NOT_A_TYPE'] });
    expect(noSuchType.status).toBe(400);
    expect(noSuchType.body.errors[0]).toMatchObject({ path: '$.nodeTypes[0]' });
    const badEvent = await register(admin, { url: receiver.url, events: ['node.exploded'] });
    expect(badEvent.status).toBe(400);
  });

  it('refuses unknown or bad query parameters and body fields like every route, naming them', async () => {
    const refused = (
      response: { status: number; headers: Headers; body: any },
      error: Record<string, string>,
    ) => {
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      expect(response.body.code).toBe('VALIDATION_FAILED');
      expect(response.body.errors).toEqual([expect.objectContaining(error)]);
    };
    // The list has no paging: pageSize and cursor are parameters it does not take.
    for (const query of ['pageSize=0', 'pageSize=-1', 'pageSize=abc', 'pageSize=5000', 'cursor=x', 'foo=1']) {
      const name = query.split('=')[0] as string;
      refused(await api.call('GET', `/api/v1/webhooks?${query}`, { token: admin }), {
        in: 'query',
        path: `$.${name}`,
        rule: 'unrecognized_key',
      });
    }
    expect((await api.call('GET', '/api/v1/webhooks', { token: admin })).status).toBe(200);

    const made = await register(admin, { url: receiver.url, description: 'strict input' });
    expect(made.status, made.text).toBe(201);
    const hook = `/api/v1/webhooks/${made.body.webhookId}`;
    const before = (await api.call('GET', hook, { token: admin })).body;
    refused(await api.call('POST', `${hook}/secret`, { token: admin, body: { a: 1 } }), {
      in: 'body',
      path: '$.a',
      rule: 'unrecognized_key',
    });
    refused(await api.call('POST', `${hook}/secret`, { token: admin, body: [] }), { in: 'body', path: '$' });
    refused(await api.call('GET', `${hook}?foo=1`, { token: admin }), { in: 'query', path: '$.foo' });
    refused(await api.call('DELETE', `${hook}`, { token: admin, body: { a: 1 } }), {
      in: 'body',
      path: '$.a',
    });
    const replay = `${hook}/deliveries/2024-01-01T00:00:00.000Z_x/replay`;
    refused(await api.call('POST', replay, { token: admin, body: { a: 1 } }), { in: 'body', path: '$.a' });
    // Nothing changed: the secret was not rotated, the endpoint not deleted.
    expect((await api.call('GET', hook, { token: admin })).body).toEqual(before);
    // The delivery log pages: a bad page size, or a cursor it did not issue, is a 400 too.
    refused(await api.call('GET', `${hook}/deliveries?pageSize=0`, { token: admin }), {
      in: 'query',
      path: '$.pageSize',
    });
    const foreignCursor = await api.call('GET', `${hook}/deliveries?cursor=x`, { token: admin });
    expect(foreignCursor.status).toBe(400);
    // Without a body, or with {}, these still work.
    const rotated = await api.call('POST', `${hook}/secret`, { token: admin, body: {} });
    expect(rotated.status, rotated.text).toBe(200);
    expect((await api.call('DELETE', hook, { token: admin })).status).toBe(204);
  });
});

describe('webhooks on a stack that does not allow loopback', () => {
  let strict: TestStack;
  beforeAll(async () => {
    strict = await startTestStack();
  });
  afterAll(() => strict.close());

  it('refuses a loopback endpoint, by name or by address', async () => {
    const token = await strict.api.login();
    for (const url of ['https://localhost/hook', 'https://127.0.0.1:9/hook', 'http://127.0.0.1/hook']) {
      const refused = await strict.api.call('POST', '/api/v1/webhooks', { token, body: { url } });
      expect(refused.status, url).toBe(400);
      expect(refused.body.errors[0]).toMatchObject({ path: '$.url' });
    }
  });
});
