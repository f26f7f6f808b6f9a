/** The local adapter speaks API Gateway HTTP API payload 2.0 both ways. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpAdapter } from '#infra/local/http-adapter.ts';
import type { HttpEvent, HttpHandler, HttpResult } from '#shared/http/types.ts';

let server: http.Server;
let baseUrl: string;
let lastEvent: HttpEvent | undefined;
let nextResult: HttpResult;

beforeAll(async () => {
  const handler: HttpHandler = async (event) => {
    lastEvent = event;
    return nextResult;
  };
  server = http.createServer(createHttpAdapter(async () => handler));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));

describe('request → event', () => {
  it('lower-cases headers, moves cookies to `cookies`, joins repeated query values, keeps the raw query string', async () => {
    nextResult = { statusCode: 200, headers: {}, body: '' };
    await fetch(`${baseUrl}/api/v1/items/AB%2D1?draft=true&nodeType=A&nodeType=B`, {
      headers: { 'X-Custom-Header': 'Value', Cookie: 'a=1; access_token=xyz' },
    });
    expect(lastEvent).toMatchObject({
      version: '2.0',
      routeKey: 'GET /api/v1/items/{nodeId}',
      rawPath: '/api/v1/items/AB%2D1',
      rawQueryString: 'draft=true&nodeType=A&nodeType=B',
      cookies: ['a=1', 'access_token=xyz'],
      queryStringParameters: { draft: 'true', nodeType: 'A,B' },
      pathParameters: { nodeId: 'AB-1' },
      isBase64Encoded: false,
      requestContext: {
        http: { method: 'GET', path: '/api/v1/items/AB%2D1', sourceIp: '127.0.0.1' },
        stage: '$default',
      },
    });
    expect(lastEvent?.headers['x-custom-header']).toBe('Value');
    expect(lastEvent?.headers).not.toHaveProperty('cookie');
    expect(lastEvent?.requestContext.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('passes text bodies as text and binary bodies as base64', async () => {
    nextResult = { statusCode: 200, headers: {}, body: '' };
    await fetch(`${baseUrl}/api/v1/items`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"a":"é"}',
    });
    expect(lastEvent).toMatchObject({ body: '{"a":"é"}', isBase64Encoded: false });
    const bytes = Buffer.from([0, 255, 1, 254]);
    await fetch(`${baseUrl}/api/v1/items`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: bytes,
    });
    expect(lastEvent).toMatchObject({ body: bytes.toString('base64'), isBase64Encoded: true });
  });

  it('sends unmatched requests to the $default route', async () => {
    nextResult = { statusCode: 404, headers: {}, body: '' };
    await fetch(`${baseUrl}/nowhere`);
    expect(lastEvent?.routeKey).toBe('$default');
  });
});

describe('result → response', () => {
  it('sends status, headers, every cookie as its own Set-Cookie, and decodes base64 bodies', async () => {
    nextResult = {
      statusCode: 201,
      headers: { 'content-type': 'application/octet-stream', etag: 'W/"1"' },
      cookies: ['a=1; Path=/', 'b=2; HttpOnly'],
      body: Buffer.from([9, 8, 7]).toString('base64'),
      isBase64Encoded: true,
    };
    const response = await fetch(`${baseUrl}/api/v1/list`);
    expect(response.status).toBe(201);
    expect(response.headers.get('etag')).toBe('W/"1"');
    expect(response.headers.getSetCookie()).toEqual(['a=1; Path=/', 'b=2; HttpOnly']);
    expect(Buffer.from(await response.arrayBuffer())).toEqual(Buffer.from([9, 8, 7]));
  });
});

describe("Lambda's 6 MB payload limit, counted on the JSON Lambda receives and returns", () => {
  const MiB = 1024 * 1024;
  const justUnder = 6 * MiB - 4096;
  const post = (body: string) =>
    fetch(`${baseUrl}/api/v1/items`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });

  it('takes a text body just under it, and refuses one that only its escaping puts over (413)', async () => {
    lastEvent = undefined;
    nextResult = { statusCode: 200, headers: {}, body: '' };
    expect((await post('x'.repeat(justUnder))).status).toBe(200);
    // Set by the handler meanwhile (the compiler cannot see it).
    expect((lastEvent as HttpEvent | undefined)?.body?.length).toBe(justUnder);
    lastEvent = undefined;
    // 3.2 MiB of quotes are 6.4 MiB once escaped as JSON.
    const refused = await post('"'.repeat(3.2 * MiB));
    expect(refused.status).toBe(413);
    expect(lastEvent).toBeUndefined();
  });

  it('answers a text body just under it, and fails one that only its escaping puts over', async () => {
    nextResult = { statusCode: 200, headers: { 'content-type': 'text/plain' }, body: 'x'.repeat(justUnder) };
    const under = await fetch(`${baseUrl}/api/v1/list`);
    expect(under.status).toBe(200);
    expect((await under.text()).length).toBe(justUnder);
    nextResult = { statusCode: 200, headers: { 'content-type': 'text/plain' }, body: '"'.repeat(3.2 * MiB) };
    const over = await fetch(`${baseUrl}/api/v1/list`);
    expect(over.status).toBeGreaterThanOrEqual(500);
    expect(await over.text()).not.toContain('""""');
  });
});
