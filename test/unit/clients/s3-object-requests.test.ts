/**
 * The hot path's S3 calls are made without the S3 client (s3-object-requests.ts): what they send must be
 * what the client would send. Presigned URLs are compared with the SDK presigner's, character for
 * character, in the cloud and on the embedded stack; S3's own faults are retried as the client retries
 * them and end as the 503 a caller may retry.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { HttpRequest } from '@smithy/core/protocols';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { s3 } from '#shared/clients/s3.ts';
import { getObjectRange, presignGetObject, putObject } from '#shared/clients/s3-object-requests.ts';
import { readServiceConfig, withConfig } from '#shared/config/index.ts';
import { isServiceUnavailable } from '#shared/data/service-faults.ts';

const configOf = (extra: Record<string, string> = {}) =>
  readServiceConfig({
    TABLE_NAME: 't',
    BUCKET_NAME: 'content-bucket-1',
    AWS_REGION: 'eu-west-1',
    TOKEN_SIGNING_KEY_ID: 'arn:aws:kms:eu-west-1:111111111111:key/k',
    ...extra,
  });

// As Lambda hands a function its role's credentials.
beforeAll(() => {
  vi.stubEnv('AWS_ACCESS_KEY_ID', 'AKIDEXAMPLE');
  vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'secret');
  vi.stubEnv('AWS_SESSION_TOKEN', 'session-token');
});
afterAll(() => vi.unstubAllEnvs());

describe('a presigned download URL', () => {
  const key = "files/F-1 (copy)/it's*";
  const overrides = {
    contentType: 'application/octet-stream',
    disposition: `attachment; filename="r_sum_.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf`,
  };

  afterEach(() => vi.useRealTimers());

  async function bothUrls(configuration: ReturnType<typeof configOf>) {
    vi.useFakeTimers({ now: new Date('2026-11-24T10:11:12Z'), toFake: ['Date'] });
    return withConfig(configuration, async () => ({
      ours: await presignGetObject(
        key,
        {
          'response-content-type': overrides.contentType,
          'response-content-disposition': overrides.disposition,
          'response-cache-control': 'private, no-store',
        },
        300,
      ),
      sdk: await getSignedUrl(
        s3(),
        new GetObjectCommand({
          Bucket: configuration.bucketName,
          Key: key,
          ResponseContentType: overrides.contentType,
          ResponseContentDisposition: overrides.disposition,
          ResponseCacheControl: 'private, no-store',
        }),
        { expiresIn: 300 },
      ),
    }));
  }

  it('is the one the SDK presigner makes, in the cloud', async () => {
    const { ours, sdk } = await bothUrls(configOf());
    expect(ours).toMatch(/^https:\/\/content-bucket-1\.s3\.eu-west-1\.amazonaws\.com\/files\/F-1%20%28copy/);
    expect(ours).toContain('X-Amz-Security-Token=session-token');
    expect(new URL(ours)).toEqual(new URL(sdk));
  });

  it('is the one the SDK presigner makes in us-east-1, where S3 began', async () => {
    const { ours, sdk } = await bothUrls(configOf({ AWS_REGION: 'us-east-1' }));
    expect(new URL(ours)).toEqual(new URL(sdk));
  });

  it('is the one the SDK presigner makes, on the embedded stack', async () => {
    const { ours, sdk } = await bothUrls(configOf({ S3_ENDPOINT: 'http://127.0.0.1:4569' }));
    expect(ours).toMatch(/^http:\/\/127\.0\.0\.1:4569\/content-bucket-1\/files\//);
    expect(new URL(ours)).toEqual(new URL(sdk));
  });
});

describe('a request in the cloud', () => {
  afterEach(() => vi.restoreAllMocks());

  /** The request as signed and handed to the HTTP handler, answered 200 with `answer` and never sent. */
  async function sentBy(call: () => Promise<unknown>, answer = '') {
    const sent: HttpRequest[] = [];
    vi.spyOn(NodeHttpHandler.prototype, 'handle').mockImplementation(async (request) => {
      sent.push(request as HttpRequest);
      return { response: { statusCode: 200, headers: {}, body: Readable.from([Buffer.from(answer)]) } };
    });
    const result = await withConfig(configOf(), call);
    return { request: sent[0] as HttpRequest, result };
  }
  const signedHeaders = (request: HttpRequest) =>
    /SignedHeaders=([^,]+)/.exec(String(request.headers.authorization))?.[1]?.split(';');

  it('puts to the bucket’s virtual host, the key escaped once, with the session token signed', async () => {
    const { request } = await sentBy(() => putObject("uploads/U 1/it's*(1)", Buffer.from('hello')));
    expect(request).toMatchObject({
      method: 'PUT',
      hostname: 'content-bucket-1.s3.eu-west-1.amazonaws.com',
      path: '/uploads/U%201/it%27s%2A%281%29',
    });
    expect(request.headers).toMatchObject({
      'content-length': '5',
      'x-amz-security-token': 'session-token',
      'x-amz-content-sha256': 'UNSIGNED-PAYLOAD',
      'x-amz-checksum-crc32': 'NhCmhg==',
    });
    expect(signedHeaders(request)).toEqual([
      'content-length',
      'content-type',
      'host',
      'x-amz-checksum-crc32',
      'x-amz-content-sha256',
      'x-amz-date',
      'x-amz-security-token',
    ]);
  });

  it('reads a range with the Range header signed, and answers its bytes', async () => {
    const { request, result } = await sentBy(() => getObjectRange('files/F', 2, 6), 'llowo');
    expect(request).toMatchObject({ method: 'GET', path: '/files/F' });
    expect(request.headers.range).toBe('bytes=2-6');
    expect(signedHeaders(request)).toContain('range');
    expect(String(result)).toBe('llowo');
  });
});

describe('S3 faults', () => {
  let server: Server;
  let answers: Array<{ status: number; body: string }>;
  let seen: IncomingMessage[];
  let endpoint: string;

  beforeAll(async () => {
    server = createServer((request, response) => {
      seen.push(request);
      request.resume();
      request.on('end', () => {
        const { status, body } = answers.shift() ?? { status: 200, body: '' };
        response.writeHead(status, { 'content-type': 'application/xml' }).end(body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const slowDown = {
    status: 503,
    body: '<Error><Code>SlowDown</Code><Message>Reduce your rate</Message></Error>',
  };

  it('are retried, and a put that then succeeds is stored once, signed, with its CRC32', async () => {
    answers = [slowDown];
    seen = [];
    await withConfig(configOf({ S3_ENDPOINT: endpoint }), () =>
      putObject('uploads/U/k/1', Buffer.from('hello')),
    );
    expect(seen.map((request) => [request.method, request.url])).toEqual([
      ['PUT', '/content-bucket-1/uploads/U/k/1'],
      ['PUT', '/content-bucket-1/uploads/U/k/1'],
    ]);
    const { headers } = seen[1] as IncomingMessage;
    expect(headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=S3RVER\//);
    expect(headers['x-amz-content-sha256']).toBe('UNSIGNED-PAYLOAD');
    // CRC32 of "hello", big-endian, base64.
    expect(headers['x-amz-checksum-crc32']).toBe('NhCmhg==');
  });

  it('that persist end as a fault the caller may retry, after three attempts', async () => {
    answers = [slowDown, slowDown, slowDown];
    seen = [];
    const failure = await withConfig(configOf({ S3_ENDPOINT: endpoint }), () =>
      getObjectRange('files/F', 0, 9).catch((error: unknown) => error),
    );
    expect(seen).toHaveLength(3);
    expect(seen[0]?.headers.range).toBe('bytes=0-9');
    expect(failure).toMatchObject({ name: 'SlowDown', $metadata: { httpStatusCode: 503 } });
    expect(isServiceUnavailable(failure)).toBe(true);
  });

  it('S3 throttling or timing out a request under a 4xx status ends as a fault the caller may retry', async () => {
    for (const answer of [
      { status: 429, body: '<Error><Code>TooManyRequests</Code><Message>slow down</Message></Error>' },
      { status: 400, body: '<Error><Code>RequestTimeout</Code><Message>too slow</Message></Error>' },
    ]) {
      answers = [answer, answer, answer];
      seen = [];
      const failure = await withConfig(configOf({ S3_ENDPOINT: endpoint }), () =>
        putObject('uploads/U/k/1', Buffer.from('hello')).catch((error: unknown) => error),
      );
      expect(seen, answer.body).toHaveLength(3);
      expect(failure).toMatchObject({ $metadata: { httpStatusCode: answer.status } });
      expect(isServiceUnavailable(failure), answer.body).toBe(true);
    }
  });

  it('a refused connection ends as a fault the caller may retry too', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const failure = await withConfig(configOf({ S3_ENDPOINT: `http://127.0.0.1:${port}` }), () =>
      putObject('uploads/U/k/1', Buffer.from('hello')).catch((error: unknown) => error),
    );
    expect(failure).toMatchObject({ name: 'NetworkingError', cause: { code: 'ECONNREFUSED' } });
    expect(isServiceUnavailable(failure)).toBe(true);
  });

  it('of the caller (a missing object) are not retried and keep S3’s name', async () => {
    answers = [{ status: 404, body: '<Error><Code>NoSuchKey</Code><Message>gone</Message></Error>' }];
    seen = [];
    const failure = await withConfig(configOf({ S3_ENDPOINT: endpoint }), () =>
      getObjectRange('files/F', 0, 9).catch((error: unknown) => error),
    );
    expect(seen).toHaveLength(1);
    expect(failure).toMatchObject({ name: 'NoSuchKey', $metadata: { httpStatusCode: 404 } });
    expect(isServiceUnavailable(failure)).toBe(false);
  });
});
