/**
 * Sending a webhook: the answer's status and start are kept, redirects are not followed, a slow endpoint
 * is given up on, and a name that resolves to an address the rules refuse is refused when the socket
 * connects (what a name resolves to at delivery is what counts, not what it resolved to at registration).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendWebhook } from '#shared/clients/webhook-http.ts';

let server: http.Server;
let port: number;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === '/redirect') {
      res.writeHead(307, { location: 'http://169.254.169.254/' });
      res.end();
    } else if (req.url === '/slow') {
      setTimeout(() => res.end('late'), 2000);
    } else if (req.url === '/long') {
      res.end('x'.repeat(10_000));
    } else {
      res.writeHead(202);
      res.end('thanks');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const allow = { allowLoopback: true };

describe('sending a webhook', () => {
  it('keeps the status and the start of the answer', async () => {
    const sent = await sendWebhook(`http://127.0.0.1:${port}/hook`, {}, '{}', allow);
    expect(sent).toMatchObject({ status: 202, error: null, response: 'thanks' });
    const long = await sendWebhook(`http://127.0.0.1:${port}/long`, {}, '{}', allow);
    expect(long.response).toHaveLength(1024);
  });

  it('does not follow a redirect, and gives up on an endpoint that does not answer in time', async () => {
    expect(await sendWebhook(`http://127.0.0.1:${port}/redirect`, {}, '{}', allow)).toMatchObject({
      status: 307,
    });
    const slow = await sendWebhook(`http://127.0.0.1:${port}/slow`, {}, '{}', allow, 200);
    expect(slow).toMatchObject({ status: null, error: 'no answer within 200 ms' });
  });

  it('refuses, at connection, a name or an address the rules do not allow', async () => {
    const byName = await sendWebhook(`http://localhost:${port}/hook`, {}, '{}', { allowLoopback: false });
    expect(byName.status).toBeNull();
    expect(byName.error).toMatch(/^refused: .*loopback/);
    const byAddress = await sendWebhook(`http://127.0.0.1:${port}/hook`, {}, '{}', { allowLoopback: false });
    expect(byAddress.error).toMatch(/^refused: /);
  });
});
