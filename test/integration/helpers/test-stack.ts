/**
 * An embedded stack per test file: fresh data dir, random ports, loopback only. Every request goes over
 * real HTTP through the local adapter to the real handlers.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll } from 'vitest';
import {
  type EmbeddedStack,
  type EmbeddedStackOptions,
  startEmbeddedStack,
} from '#infra/local/embedded-stack.ts';
import { EMBEDDED_CREDENTIALS } from '#shared/clients/aws-client-settings.ts';
import { assertMatchesContract } from './contract.ts';

export const ADMIN = { username: 'admin', password: 'integration-admin-password' };

export interface TestStack {
  stack: EmbeddedStack;
  api: ApiClient;
  dataDir: string;
  close(): Promise<void>;
}

/** A stack with a fresh data dir; `options` sets what a stage would (CORS origins, settings, …). */
export async function startTestStack(options: Partial<EmbeddedStackOptions> = {}): Promise<TestStack> {
  const dataDir = mkdtempSync(join(tmpdir(), 'content-repository-it-'));
  const stack = await startEmbeddedStack({
    port: 0,
    host: '127.0.0.1',
    dataDir,
    adminUsername: ADMIN.username,
    adminPassword: ADMIN.password,
    ttlSweepSeconds: 3600,
    logLevel: process.env.TEST_LOG === 'info' ? 'info' : 'silent',
    ...options,
  });
  // Guard: these tests write and delete freely; they must never reach anything but this machine.
  for (const endpoint of [stack.url, stack.config.dynamoDbEndpoint, stack.config.s3Endpoint]) {
    if (!endpoint || !/^http:\/\/(127\.0\.0\.1|localhost)(:\d+)?$/.test(endpoint)) {
      throw new Error(`Refusing to run integration tests against non-local endpoint ${endpoint}`);
    }
  }
  return {
    stack,
    api: new ApiClient(stack.url),
    dataDir,
    async close() {
      await stack.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A DynamoDB document client on the stack's table, for tests that look at or age stored items. */
export function tableClient(stack: EmbeddedStack): { client: DynamoDBDocumentClient; TableName: string } {
  const client = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: stack.config.dynamoDbEndpoint,
      region: 'us-east-1',
      credentials: EMBEDDED_CREDENTIALS,
    }),
  );
  return { client, TableName: stack.config.tableName };
}

/** An S3 client on the stack's bucket, for tests that look at or remove stored objects. */
export function bucketClient(stack: EmbeddedStack): { s3: S3Client; Bucket: string } {
  const s3 = new S3Client({
    endpoint: stack.config.s3Endpoint,
    region: 'us-east-1',
    credentials: EMBEDDED_CREDENTIALS,
    forcePathStyle: true,
  });
  return { s3, Bucket: stack.config.bucketName };
}

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
  /** The body as received (downloads). */
  bytes: Buffer;
}

export interface CallOptions {
  token?: string;
  body?: unknown;
  /** Sent as is (no JSON encoding). */
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
}

const agent = new http.Agent({ keepAlive: true });

/**
 * One request over HTTP with the request target sent exactly as given: no URL normalization, so
 * `/items/X/grants/..` and `%2e%2e` reach the server as a hostile client would send them.
 */
function send(
  baseUrl: string,
  method: string,
  target: string,
  headers: Record<string, string>,
  body: string | Buffer | undefined,
): Promise<{ status: number; headers: Headers; text: string; bytes: Buffer }> {
  const { hostname, port } = new URL(baseUrl);
  // Node sends DELETE bodies neither chunked nor with a length unless told: always give the length.
  if (body !== undefined) headers['content-length'] ??= String(Buffer.byteLength(body));
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: hostname, port, method, path: target, headers, agent, setHost: !('host' in headers) },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          const responseHeaders = new Headers();
          for (let i = 0; i < response.rawHeaders.length; i += 2) {
            responseHeaders.append(response.rawHeaders[i] as string, response.rawHeaders[i + 1] as string);
          }
          const bytes = Buffer.concat(chunks);
          resolve({
            status: response.statusCode ?? 0,
            headers: responseHeaders,
            text: bytes.toString('utf8'),
            bytes,
          });
        });
      },
    );
    request.on('error', (error: NodeJS.ErrnoException) => {
      // A kept-alive socket the server closed as this request went out (Node's documented race): the
      // request never reached the server, so it is sent again on a fresh socket.
      if (request.reusedSocket && error.code === 'ECONNRESET') {
        send(baseUrl, method, target, headers, body).then(resolve, reject);
        return;
      }
      reject(error);
    });
    request.end(body);
  });
}

export class ApiClient {
  constructor(readonly baseUrl: string) {}

  async call<T = any>(method: string, path: string, options: CallOptions = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { 'user-agent': 'content-repository-tests', ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: string | Buffer | undefined = options.rawBody;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await send(this.baseUrl, method, path, headers, body);
    const text = response.text;
    let parsed: unknown = text;
    if (/json/.test(response.headers.get('content-type') ?? '') && text) parsed = JSON.parse(text);
    assertMatchesContract(method, path, response.status, response.headers.get('content-type'), parsed);
    return {
      status: response.status,
      headers: response.headers,
      body: parsed as T,
      text,
      bytes: response.bytes,
    };
  }

  /** Logs in and returns the access token from the Set-Cookie header. */
  async login(username = ADMIN.username, password = ADMIN.password): Promise<string> {
    const response = await this.call('POST', '/api/v1/login/local', { body: { username, password } });
    if (response.status !== 302) throw new Error(`login failed: ${response.status} ${response.text}`);
    const token = cookieValue(response.headers, 'access_token');
    if (!token) throw new Error('login set no access_token cookie');
    return token;
  }
}

export function cookieValue(headers: Headers, name: string): string | undefined {
  for (const cookie of headers.getSetCookie()) {
    const [pair] = cookie.split(';');
    const [key, ...value] = (pair ?? '').split('=');
    if (key === name) return decodeURIComponent(value.join('='));
  }
  return undefined;
}

/** A stack with the administrator logged in, and the id of its Default environment. */
export interface AdminSession {
  ctx: TestStack;
  api: ApiClient;
  token: string;
  environmentId: string;
}

export async function startAdminSession(): Promise<AdminSession> {
  const ctx = await startTestStack();
  const token = await ctx.api.login();
  const page = await ctx.api.call('GET', '/api/v1/list?nodeType=ENVIRONMENT', { token });
  const environment = page.body.results.find((e: { name: string }) => e.name === 'Default');
  if (!environment) throw new Error('no Default environment');
  return { ctx, api: ctx.api, token, environmentId: environment.nodeId };
}

/**
 * The usual setting of a test file: one stack with the administrator logged in, started before the
 * file's tests (handed to `use`, which keeps what it needs) and closed after them.
 */
export function withAdminSession(use: (session: AdminSession) => void | Promise<void>): void {
  let session: AdminSession | undefined;
  beforeAll(async () => {
    session = await startAdminSession();
    await use(session);
  });
  afterAll(() => session?.ctx.close());
}
