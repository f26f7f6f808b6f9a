import type { Context } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import { readServiceConfig, withConfig } from '#shared/config/index.ts';
import { ConflictError } from '#shared/domain/errors.ts';
import { handle } from '#shared/http/operation.ts';
import { json } from '#shared/http/responses.ts';
import type { HttpEvent } from '#shared/http/types.ts';

function event(overrides: Partial<HttpEvent> = {}): HttpEvent {
  return {
    version: '2.0',
    routeKey: 'POST /api/v1/test',
    rawPath: '/api/v1/test',
    rawQueryString: '',
    headers: { 'content-type': 'application/json' },
    requestContext: {
      accountId: '1',
      apiId: 'api',
      domainName: 'example.com',
      domainPrefix: 'example',
      http: {
        method: 'POST',
        path: '/api/v1/test',
        protocol: 'HTTP/1.1',
        sourceIp: '127.0.0.1',
        userAgent: 'test',
      },
      requestId: 'req-123',
      routeKey: 'POST /api/v1/test',
      stage: '$default',
      time: '',
      timeEpoch: 0,
    },
    isBase64Encoded: false,
    ...overrides,
  };
}

const context = {} as Context;
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

/** The chain as loaded in a process whose LOG_LEVEL is info (configuration is read once per process). */
async function loggingOperation() {
  vi.resetModules();
  vi.stubEnv('LOG_LEVEL', 'info');
  const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
  const module = await import('#shared/http/operation.ts');
  return { handle: module.handle, log };
}

describe('the middy chain', () => {
  it('turns a bug into a generic 500 with the request id, and logs the stack only', async () => {
    const { handle: loggingHandle, log } = await loggingOperation();
    const handler = loggingHandle({ name: 'boom', authenticated: false, request: {} }, async () => {
      throw new TypeError('secret internals at /var/task/index.mjs');
    });
    const result = await handler(event(), context);
    expect(result.statusCode).toBe(500);
    expect(result.headers['content-type']).toBe('application/problem+json');
    const body = JSON.parse(result.body as string);
    expect(body).toEqual({
      type: expect.any(String),
      title: 'Internal Server Error',
      status: 500,
      detail: 'An unexpected error occurred. Quote the requestId when you report it.',
      code: 'INTERNAL_ERROR',
      instance: '/api/v1/test',
      requestId: 'req-123',
    });
    expect(result.body).not.toContain('secret internals');
    const line = JSON.parse(log.mock.calls[0]?.[0] as string);
    expect(line).toMatchObject({
      level: 'error',
      status: 500,
      requestId: 'req-123',
      error: { name: 'TypeError' },
    });
    expect(line.error.stack).toContain('operation.test.ts');
  });

  it('maps domain errors by kind, with their extra members and headers', async () => {
    const handler = handle({ name: 'conflict', authenticated: false, request: {} }, async () => {
      throw new ConflictError('SOMETHING', 'it clashed', { hint: 'retry' });
    });
    const result = await handler(event(), context);
    expect(result.statusCode).toBe(409);
    expect(JSON.parse(result.body as string)).toMatchObject({
      code: 'SOMETHING',
      detail: 'it clashed',
      hint: 'retry',
    });
  });

  it('hands validated body, query and path to the handler', async () => {
    const handler = handle(
      {
        name: 'echo',
        authenticated: false,
        request: {
          body: z.strictObject({ n: z.number() }),
          query: z.strictObject({ q: z.string() }),
          path: z.strictObject({ id: z.string() }),
        },
      },
      async ({ body, query, path, requestId }) => json(200, { body, query, path, requestId }),
    );
    const result = await handler(
      event({ body: '{"n":1}', queryStringParameters: { q: 'x' }, pathParameters: { id: 'p' } }),
      context,
    );
    expect(JSON.parse(result.body as string)).toEqual({
      body: { n: 1 },
      query: { q: 'x' },
      path: { id: 'p' },
      requestId: 'req-123',
    });
  });

  it('decodes base64 bodies and refuses non-JSON media types with 415', async () => {
    const handler = handle(
      { name: 'echo', authenticated: false, request: { body: z.strictObject({ n: z.number() }) } },
      async ({ body }) => json(200, body),
    );
    const encoded = await handler(
      event({ body: Buffer.from('{"n":2}').toString('base64'), isBase64Encoded: true }),
      context,
    );
    expect(JSON.parse(encoded.body as string)).toEqual({ n: 2 });
    const xml = await handler(
      event({ body: '<n/>', headers: { 'content-type': 'application/xml' } }),
      context,
    );
    expect(xml.statusCode).toBe(415);
  });

  it('a 415 names the header it refuses; one for a content coding says Accept-Encoding: identity', async () => {
    const handler = handle(
      { name: 'echo', authenticated: false, request: { body: z.strictObject({ n: z.number() }) } },
      async ({ body }) => json(200, body),
    );
    const text = await handler(
      event({ body: '{"n":1}', headers: { 'content-type': 'text/plain' } }),
      context,
    );
    expect(text.statusCode).toBe(415);
    expect(JSON.parse(text.body as string).errors).toEqual([
      {
        in: 'header',
        path: '$.Content-Type',
        rule: 'media_type',
        message: expect.stringContaining('application/json'),
      },
    ]);
    expect(text.headers['Accept-Encoding']).toBeUndefined();
    const latin1 = await handler(
      event({ body: '{"n":1}', headers: { 'content-type': 'application/json; charset=iso-8859-1' } }),
      context,
    );
    expect(JSON.parse(latin1.body as string).errors).toEqual([
      expect.objectContaining({ in: 'header', path: '$.Content-Type', rule: 'charset' }),
    ]);
    const gzip = await handler(
      event({ body: '{"n":1}', headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } }),
      context,
    );
    expect(gzip.statusCode).toBe(415);
    expect(gzip.headers['Accept-Encoding']).toBe('identity');
    expect(JSON.parse(gzip.body as string).errors).toEqual([
      expect.objectContaining({ in: 'header', path: '$.Content-Encoding', rule: 'content_coding' }),
    ]);
  });

  it('with CORS origins configured, every answer says Vary: Origin, beside a Vary of its own', async () => {
    const handler = handle(
      { name: 'echo', authenticated: false, request: { body: z.strictObject({ n: z.number() }) } },
      async ({ body }) => json(200, body, { Vary: 'Accept-Language' }),
    );
    const portal = readServiceConfig({ ...process.env, CORS_ORIGINS: 'https://portal.example.com' });
    const answered = await withConfig(portal, () => handler(event({ body: '{"n":1}' }), context));
    expect(answered.statusCode).toBe(200);
    expect(answered.headers).toMatchObject({ vary: 'Accept-Language, Origin' });
    expect(answered.headers).not.toHaveProperty('Vary');
    const refused = await withConfig(portal, () => handler(event({ body: '{"n":"x"}' }), context));
    expect(refused.statusCode).toBe(400);
    expect(refused.headers.vary).toBe('Origin');
    // Without an allow-list, no answer depends on the Origin.
    expect((await handler(event({ body: '{"n":"x"}' }), context)).headers).not.toHaveProperty('vary');
  });

  it('writes one JSON log line per request with operation, status, latency and request id', async () => {
    const { handle: loggingHandle, log } = await loggingOperation();
    const handler = loggingHandle({ name: 'ping', authenticated: false, request: {} }, async () =>
      json(200, {}),
    );
    await handler(event(), context);
    expect(log).toHaveBeenCalledTimes(1);
    expect(JSON.parse(log.mock.calls[0]?.[0] as string)).toMatchObject({
      level: 'info',
      operation: 'ping',
      status: 200,
      requestId: 'req-123',
      latencyMs: expect.any(Number),
      consumedRCU: 0,
      consumedWCU: 0,
    });
  });
});
