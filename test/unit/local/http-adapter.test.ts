/** The local adapter speaks API Gateway HTTP API payload 2.0 both ways. */
import type http from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAdapterServer, createHttpAdapter } from '#infra/local/http-adapter.ts';
import type { HttpEvent, HttpHandler, HttpResult } from '#shared/http/types.ts';

const PORTAL = 'https://portal.example.com';
let server: http.Server;
let baseUrl: string;
/** The same handler behind an adapter whose stage allows PORTAL's browser apps (CORS). */
let corsServer: http.Server;
let corsUrl: string;
let lastEvent: HttpEvent | undefined;
let nextResult: HttpResult;

async function listening(listener: http.RequestListener): Promise<[http.Server, string]> {
  const started = createAdapterServer(listener);
  await new Promise<void>((done) => started.listen(0, '127.0.0.1', () => done()));
  return [started, `http://127.0.0.1:${(started.address() as AddressInfo).port}`];
}

beforeAll(async () => {
  const handler: HttpHandler = async (event) => {
    lastEvent = event;
    return nextResult;
  };
  [server, baseUrl] = await listening(createHttpAdapter(async () => handler));
  [corsServer, corsUrl] = await listening(createHttpAdapter(async () => handler, [PORTAL]));
});
afterAll(() =>
  Promise.all([server, corsServer].map((s) => new Promise<void>((done) => s.close(() => done())))),
);

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

  it('sends no Content-Length on a 204 or a 304 (RFC 9110 §8.6), and the length of the body otherwise', async () => {
    const get = 'GET /api/v1/list HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n';
    const headOf = (answer: string) => answer.split('\r\n\r\n')[0] ?? '';
    nextResult = { statusCode: 204, headers: {}, body: '' };
    const noContent = headOf(await rawExchange(get));
    expect(noContent).toMatch(/^HTTP\/1\.1 204 /);
    expect(noContent).not.toMatch(/content-length/i);
    // Even one the handler set.
    nextResult = { statusCode: 204, headers: { 'content-length': '0' }, body: '' };
    expect(headOf(await rawExchange(get))).not.toMatch(/content-length/i);
    nextResult = { statusCode: 304, headers: { etag: '"v1"' }, body: '' };
    const notModified = headOf(await rawExchange(get));
    expect(notModified).toMatch(/^HTTP\/1\.1 304 /);
    expect(notModified).toMatch(/etag: "v1"/i);
    expect(notModified).not.toMatch(/content-length/i);
    nextResult = { statusCode: 200, headers: {}, body: 'abc' };
    expect(headOf(await rawExchange(get))).toMatch(/content-length: 3/i);
  });
});

describe('CORS, on a stage with an allow-list', () => {
  const preflight = (origin: string, requestHeaders = 'authorization') =>
    fetch(`${corsUrl}/api/v1/document/documents/D1/content`, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'GET',
        'access-control-request-headers': requestHeaders,
      },
    });

  it('a preflight allows what a download honours: Range and If-Range', async () => {
    const allowed = await preflight(PORTAL, 'authorization, if-range, range');
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(PORTAL);
    const headers = allowed.headers.get('access-control-allow-headers')?.split(',') ?? [];
    expect(headers).toEqual(expect.arrayContaining(['authorization', 'if-range', 'range']));
  });

  it('every answer says Vary: Origin: to the allowed origin, another, none, and beside its own Vary', async () => {
    nextResult = { statusCode: 200, headers: { 'cache-control': 'public, max-age=3600' }, body: '{}' };
    const allowed = await fetch(`${corsUrl}/api/v1/list`, { headers: { origin: PORTAL } });
    expect(allowed.headers.get('access-control-allow-origin')).toBe(PORTAL);
    expect(allowed.headers.get('vary')).toBe('Origin');
    // The copy a shared cache keeps of these must not be handed to the allowed origin.
    const other = await fetch(`${corsUrl}/api/v1/list`, { headers: { origin: 'https://evil.example' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    expect(other.headers.get('vary')).toBe('Origin');
    const none = await fetch(`${corsUrl}/api/v1/list`);
    expect(none.headers.get('vary')).toBe('Origin');
    const refused = await preflight('https://evil.example');
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    expect(refused.headers.get('vary')).toBe('Origin');
    nextResult = { statusCode: 200, headers: { Vary: 'Accept-Language' }, body: '{}' };
    const own = await fetch(`${corsUrl}/api/v1/list`, { headers: { origin: PORTAL } });
    expect(own.headers.get('vary')).toBe('Accept-Language, Origin');
    nextResult = { statusCode: 200, headers: { vary: 'origin' }, body: '{}' };
    expect((await fetch(`${corsUrl}/api/v1/list`)).headers.get('vary')).toBe('origin');
  });

  it("the adapter's own answers say it too (a body over the limit)", async () => {
    const over = await fetch(`${corsUrl}/api/v1/items`, {
      method: 'POST',
      headers: { origin: PORTAL, 'content-type': 'application/json' },
      body: 'x'.repeat(11 * 1024 * 1024),
    });
    expect(over.status).toBe(413);
    expect(over.headers.get('access-control-allow-origin')).toBe(PORTAL);
    expect(over.headers.get('vary')).toBe('Origin');
  });

  it('a stage without an allow-list sends neither CORS headers nor Vary', async () => {
    nextResult = { statusCode: 200, headers: {}, body: '{}' };
    const answered = await fetch(`${baseUrl}/api/v1/list`, { headers: { origin: PORTAL } });
    expect(answered.headers.get('access-control-allow-origin')).toBeNull();
    expect(answered.headers.get('vary')).toBeNull();
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

/** Sends `request` as is over a new connection; answers what came back before the server closed it. */
function rawExchange(request: string, { closeAfterSend = false, to = server } = {}): Promise<string> {
  const { port } = to.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(request);
      if (closeAfterSend) socket.destroy();
    });
    let answer = '';
    socket.on('data', (data) => {
      answer += data.toString('latin1');
      // One answer is enough: keep-alive would hold the connection open.
      if (answer.includes('\r\n\r\n') && answer.length >= answerLength(answer)) socket.destroy();
    });
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}
const answerLength = (answer: string) => {
  const [head = ''] = answer.split('\r\n\r\n');
  return head.length + 4 + Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
};
const problemOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));

describe('requests the adapter cannot take as sent', () => {
  it('an Expect other than 100-continue: 417 problem+json, the handler not run', async () => {
    lastEvent = undefined;
    const answer = await rawExchange(
      'POST /api/v1/items HTTP/1.1\r\nHost: x\r\nExpect: foo\r\nContent-Length: 2\r\n\r\n{}',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 417 /);
    expect(answer).toMatch(/content-type: application\/problem\+json/i);
    expect(problemOf(answer)).toMatchObject({
      status: 417,
      code: 'EXPECTATION_FAILED',
      instance: '/api/v1/items',
    });
    expect(lastEvent).toBeUndefined();
  });

  it('a transfer coding other than chunked: 400 problem+json, the handler not run', async () => {
    lastEvent = undefined;
    const answer = await rawExchange(
      'POST /api/v1/items HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(problemOf(answer)).toMatchObject({ code: 'MALFORMED_REQUEST' });
    expect(lastEvent).toBeUndefined();
  });

  it('an HTTP/1.1 request without Host: 400 problem+json naming the header, the handler not run', async () => {
    lastEvent = undefined;
    const answer = await rawExchange('GET /api/v1/list?x=1 HTTP/1.1\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toMatch(/content-type: application\/problem\+json/i);
    expect(answer).toMatch(/connection: close/i);
    expect(problemOf(answer)).toMatchObject({
      status: 400,
      code: 'MALFORMED_REQUEST',
      instance: '/api/v1/list',
      errors: [{ in: 'header', path: '$.Host', rule: 'required', message: expect.any(String) }],
    });
    expect(lastEvent).toBeUndefined();
    // HTTP/1.0 has no Host to require.
    nextResult = { statusCode: 200, headers: {}, body: '' };
    expect(await rawExchange('GET /api/v1/list HTTP/1.0\r\n\r\n')).toMatch(/^HTTP\/1\.1 200 /);
    expect((lastEvent as HttpEvent | undefined)?.requestContext.domainName).toBe('localhost');
  });

  it("a body cut short by the client: no handler run, no error logged (the fault is the client's)", async () => {
    lastEvent = undefined;
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const logs = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      await rawExchange('POST /api/v1/items HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{"a"', {
        closeAfterSend: true,
      });
      await vi.waitFor(() => expect(logs).toHaveBeenCalled());
      expect(errors).not.toHaveBeenCalled();
      expect(JSON.parse(String(logs.mock.calls[0]?.[0]))).toMatchObject({ level: 'info' });
      expect(lastEvent).toBeUndefined();
    } finally {
      errors.mockRestore();
      logs.mockRestore();
    }
  });
});
