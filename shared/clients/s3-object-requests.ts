/**
 * The S3 calls on a request's hot path: an upload chunk's PutObject, a download's ranged GetObject, and a
 * presigned GetObject URL. They are made from the SDK's own parts, which every function already loads for
 * DynamoDB: the SigV4 signer, the node HTTP handler and the standard retry strategy. The S3 client is not
 * used for them. That client brings its endpoint rules, XML protocol, schemas and checksum middleware, about
 * 85 KB that receiveChunk and downloadFile parsed at every cold start. The calls off the hot path (the
 * multipart assembly, tagging, deletes) keep the S3 client (s3.ts).
 *
 * Requests are signed as the S3 client signs them: the path not escaped twice, the body UNSIGNED-PAYLOAD
 * (TLS protects it in transit) with a CRC32 that S3 checks, and presigned URLs as
 * `@aws-sdk/s3-request-presigner` makes them (test/unit/clients/s3-object-requests.test.ts compares them).
 */
import type { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { crc32 } from 'node:zlib';
import { formatUrl } from '@aws-sdk/core/util';
import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { Sha256 } from '@smithy/core/checksum';
import { escapeUriPath, HttpRequest } from '@smithy/core/protocols';
import { isThrottlingError, isTransientError, StandardRetryStrategy } from '@smithy/core/retry';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { SignatureV4 } from '@smithy/signature-v4';
import { perConfig } from '#shared/config/index.ts';
import { EMBEDDED_CREDENTIALS } from './aws-client-settings.ts';

/** As the S3 client: three attempts, backoff and a retry budget shared by the process's calls. */
const MAX_ATTEMPTS = 3;
/**
 * A connection S3 does not accept within this, or one that goes quiet this long, is given up (and tried
 * again): a stalled call would otherwise hold the request until API Gateway's 504 instead of a 503.
 */
const TIMEOUTS = { connectionTimeout: 3_000, socketTimeout: 10_000 };
/** Named in S3's access logs and CloudTrail, which show the caller's agent. */
const USER_AGENT = 'content-repository/s3-object-requests';

/** A failed S3 call, shaped as the SDK's errors are for the code that classifies them (service-faults.ts). */
export class S3CallError extends Error {
  readonly $metadata: { httpStatusCode?: number };
  /** Set when S3 was at fault (throttling, a 5xx, a timeout, a dropped connection) and retries ran out. */
  $retryable?: { throttling: boolean };
  constructor(name: string, message: string, httpStatusCode?: number, cause?: unknown) {
    super(message, { cause });
    this.name = name;
    this.$metadata = { httpStatusCode };
  }
}

interface ObjectRequest {
  method: 'GET' | 'PUT';
  key: string;
  headers?: Record<string, string>;
  query?: Record<string, string>;
  body?: Buffer;
}

const objectRequests = perConfig((configuration) => {
  const { bucketName, region, s3Endpoint } = configuration;
  const signer = new SignatureV4({
    service: 's3',
    region,
    credentials: s3Endpoint ? EMBEDDED_CREDENTIALS : defaultProvider(),
    sha256: Sha256,
    // S3 signs the path as sent; every other service escapes it once more.
    uriEscapePath: false,
  });
  // The embedded S3 (s3rver) takes path-style addresses; the cloud's are virtual-hosted.
  const base = new URL(
    s3Endpoint
      ? `${s3Endpoint.replace(/\/$/, '')}/${bucketName}`
      : `https://${bucketName}.s3.${region}.amazonaws.com`,
  );
  const location = (key: string) => ({
    protocol: base.protocol,
    hostname: base.hostname,
    port: base.port ? Number(base.port) : undefined,
    path: `${base.pathname.replace(/\/$/, '')}/${escapeUriPath(key)}`,
  });
  const hostOf = (port: number | undefined) => (port ? `${base.hostname}:${port}` : base.hostname);
  return {
    signer,
    handler: new NodeHttpHandler(TIMEOUTS),
    retries: new StandardRetryStrategy(MAX_ATTEMPTS),
    // The S3 client validates responses' checksums in the cloud only (s3.ts).
    checksumMode: (s3Endpoint ? {} : { 'x-amz-checksum-mode': 'ENABLED' }) as Record<string, string>,
    build({ method, key, headers = {}, query = {}, body }: ObjectRequest): HttpRequest {
      const where = location(key);
      return new HttpRequest({
        ...where,
        method,
        query,
        headers: {
          ...headers,
          host: hostOf(where.port),
          'user-agent': USER_AGENT,
          'x-amz-content-sha256': 'UNSIGNED-PAYLOAD',
        },
        body,
      });
    },
  };
});

/** One S3 call, signed afresh for each attempt; answers the whole body of a 2xx. */
async function send(request: ObjectRequest): Promise<Buffer> {
  const { signer, handler, retries, build } = objectRequests();
  let token = await retries.acquireInitialRetryToken('s3');
  for (;;) {
    try {
      const signed = await signer.sign(build(request));
      const { response } = await handler.handle(signed as HttpRequest);
      const body = await buffer(response.body as Readable);
      if (response.statusCode >= 300) throw failureOf(response.statusCode, body);
      retries.recordSuccess(token);
      return body;
    } catch (error) {
      const errorType = isThrottlingError(error as never)
        ? 'THROTTLING'
        : isTransientError(error as never)
          ? 'TRANSIENT'
          : undefined;
      if (!errorType) throw error;
      try {
        token = await retries.refreshRetryTokenForRetry(token, { errorType });
      } catch {
        // Out of attempts: S3's fault all the same (a 429 or a RequestTimeout as much as a 503 or a
        // dropped connection), which the caller may retry.
        const failure =
          error instanceof S3CallError
            ? error
            : new S3CallError('NetworkingError', (error as Error).message, undefined, error);
        failure.$retryable = { throttling: errorType === 'THROTTLING' };
        throw failure;
      }
      // This version's strategy waits the backoff itself and answers 0; earlier ones left it to the caller.
      const delay = token.getRetryDelay();
      if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

/** S3's error document names the error in `<Code>`; a HEAD or a dropped body has none. */
function failureOf(statusCode: number, body: Buffer): S3CallError {
  const text = body.toString('utf8');
  const code = /<Code>([^<]+)<\/Code>/.exec(text)?.[1] ?? `Http${statusCode}`;
  const message = /<Message>([^<]*)<\/Message>/.exec(text)?.[1] ?? `S3 answered ${statusCode}`;
  return new S3CallError(code, message, statusCode);
}

/** Stores `body` at `key`, with its CRC32 for S3 to check. */
export async function putObject(key: string, body: Buffer): Promise<void> {
  const checksum = Buffer.alloc(4);
  checksum.writeUInt32BE(crc32(body));
  await send({
    method: 'PUT',
    key,
    headers: {
      'content-length': String(body.length),
      'content-type': 'application/octet-stream',
      'x-amz-checksum-crc32': checksum.toString('base64'),
    },
    body,
  });
}

/** Bytes `start`..`end` (inclusive) of the object at `key`. */
export async function getObjectRange(key: string, start: number, end: number): Promise<Buffer> {
  return send({ method: 'GET', key, headers: { range: `bytes=${start}-${end}` } });
}

/** A URL that GETs the object at `key` for `seconds`, with S3's response overrides in `query`. */
export async function presignGetObject(
  key: string,
  query: Record<string, string>,
  seconds: number,
): Promise<string> {
  const { signer, build, checksumMode } = objectRequests();
  // As the SDK's presigner signs a GetObject: `x-id` names the operation, the payload hash goes in twice
  // (the client's header and the presigner's), and in the cloud S3 is asked for the object's checksums.
  const request = build({
    method: 'GET',
    key,
    query: { ...query, 'x-id': 'GetObject' },
    headers: { 'X-Amz-Content-Sha256': 'UNSIGNED-PAYLOAD', ...checksumMode },
  });
  const signed = await signer.presign(request, {
    expiresIn: seconds,
    unsignableHeaders: new Set(['content-type']),
  });
  return formatUrl(signed);
}
