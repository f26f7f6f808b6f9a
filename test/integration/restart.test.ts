/**
 * A restart on the same data: what the embedded stack kept from its last run (a webhook retry still in its
 * queue) is taken up once the restarted stack is ready, not failed while it is still starting.
 */
import { rmSync } from 'node:fs';
import { afterEach, expect, it, vi } from 'vitest';
import { type EmbeddedStack, startEmbeddedStack } from '#infra/local/embedded-stack.ts';
import { defaultEnvironmentId, folder } from './helpers/library.ts';
import { ADMIN, startTestStack } from './helpers/test-stack.ts';
import { startReceiver } from './helpers/webhook-receiver.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  vi.restoreAllMocks();
});

it('delivers a webhook retry kept from the last run once restarted, without a failed queue batch', async () => {
  const settings = { webhookAllowLoopback: true, webhookRetrySeconds: [1], queueVisibilitySeconds: 1 };
  const first = await startTestStack(settings);
  cleanups.push(() => rmSync(first.dataDir, { recursive: true, force: true }));
  const receiver = await startReceiver();
  cleanups.push(() => receiver.close());
  receiver.answerWith(500);
  const token = await first.api.login();
  const hook = await first.api.call('POST', '/api/v1/webhooks', {
    token,
    body: { url: receiver.url, events: ['node.created'] },
  });
  expect(hook.status, hook.text).toBe(201);
  const env = await defaultEnvironmentId(first.api, token);
  expect((await first.api.call('POST', '/api/v1/items', { token, body: folder(env, 'Kept') })).status).toBe(
    200,
  );
  // The first attempt fails; its retry (due a second later) is in the queue when the stack stops.
  await receiver.until((got) => got.length === 1);
  await first.stack.close();
  await new Promise((done) => setTimeout(done, 1500));

  const errors = vi.spyOn(console, 'error');
  const second: EmbeddedStack = await startEmbeddedStack({
    port: 0,
    host: '127.0.0.1',
    dataDir: first.dataDir,
    adminUsername: ADMIN.username,
    adminPassword: ADMIN.password,
    ttlSweepSeconds: 3600,
    logLevel: 'silent',
    ...settings,
  });
  cleanups.push(() => second.close());
  await receiver.until((got) => got.length === 2);
  expect(receiver.received[1]?.message.type).toBe('node.created');
  expect(
    errors.mock.calls.map((call) => String(call[0])).filter((line) => line.includes('Queue batch failed')),
  ).toEqual([]);
});
