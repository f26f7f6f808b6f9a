/**
 * The embedded DynamoDB: dynalite (LevelDB files under DATA_DIR) behind a small gateway that adds
 * what dynalite lacks, TransactWriteItems / TransactGetItems and TTL, and serializes writes while a
 * transaction runs. Clients talk to the gateway's endpoint exactly as they would to DynamoDB.
 */

import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import dynalite from 'dynalite';
import { EMBEDDED_CREDENTIALS } from '#shared/clients/aws-client-settings.ts';
import { DynamoDbWireError } from './dynamodb-errors.ts';
import { LocalTransactions } from './dynamodb-transactions.ts';
import { LocalTimeToLive } from './dynamodb-ttl.ts';
import { WriteLock } from './write-lock.ts';

export interface LocalDynamoDb {
  endpoint: string;
  /** Deletes expired items now (the sweeper also runs on its own every `ttlSweepSeconds`). */
  sweepExpiredItems(nowSeconds?: number): Promise<number>;
  close(): Promise<void>;
}

const WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem']);

function listen(server: http.Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve((server.address() as AddressInfo).port));
  });
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function reply(res: ServerResponse, status: number, body: string): void {
  const buffer = Buffer.from(body);
  res.writeHead(status, {
    'content-type': 'application/x-amz-json-1.0',
    'content-length': buffer.length,
    'x-amzn-requestid': randomUUID(),
    'x-amz-crc32': String(crc32(buffer)),
  });
  res.end(buffer);
}

export async function startLocalDynamoDb(options: {
  dataDir: string;
  port?: number;
  ttlSweepSeconds?: number;
}): Promise<LocalDynamoDb> {
  const dir = join(options.dataDir, 'dynamodb');
  mkdirSync(dir, { recursive: true });
  const store = dynalite({ path: dir, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  const storePort = await listen(store, 0, '127.0.0.1');
  const storeUrl = `http://127.0.0.1:${storePort}`;
  const backend = new DynamoDBClient({
    endpoint: storeUrl,
    region: 'us-east-1',
    credentials: EMBEDDED_CREDENTIALS,
    maxAttempts: 1,
  });
  const lock = new WriteLock();
  const transactions = new LocalTransactions(backend);
  const ttl = new LocalTimeToLive(backend, join(options.dataDir, 'dynamodb-ttl.json'), lock);

  const forward = (req: IncomingMessage, body: Buffer, res: ServerResponse) =>
    new Promise<void>((resolve, reject) => {
      const upstream = http.request(
        `${storeUrl}${req.url ?? '/'}`,
        { method: req.method, headers: { ...req.headers, host: `127.0.0.1:${storePort}` } },
        (answer) => {
          res.writeHead(answer.statusCode ?? 500, answer.headers);
          answer.pipe(res);
          answer.on('end', resolve);
          answer.on('error', reject);
        },
      );
      upstream.on('error', reject);
      upstream.end(body);
    });

  const handled = new Map<string, (input: never) => Promise<unknown>>([
    ['TransactWriteItems', (input) => lock.run(() => transactions.transactWrite(input))],
    ['TransactGetItems', (input) => lock.run(() => transactions.transactGet(input))],
    ['UpdateTimeToLive', (input) => ttl.update(input)],
    ['DescribeTimeToLive', (input) => ttl.describe(input)],
  ]);

  const gateway = http.createServer(async (req, res) => {
    try {
      const body = await readBody(req);
      const action = String(req.headers['x-amz-target'] ?? '').split('.')[1] ?? '';
      const own = handled.get(action);
      if (own) reply(res, 200, JSON.stringify(await own(JSON.parse(body.toString('utf8') || '{}') as never)));
      else if (WRITES.has(action)) await lock.run(() => forward(req, body, res));
      else await forward(req, body, res);
    } catch (error) {
      const wire =
        error instanceof DynamoDbWireError
          ? error
          : new DynamoDbWireError(
              'InternalServerError',
              `Embedded DynamoDB failed: ${(error as Error).message}`,
              {},
              500,
            );
      if (!res.headersSent) reply(res, wire.statusCode, wire.toBody());
      else res.destroy();
    }
  });
  const port = await listen(gateway, options.port ?? 0, '127.0.0.1');

  const sweepSeconds = options.ttlSweepSeconds ?? 60;
  const sweeper = setInterval(() => {
    ttl
      .sweep()
      .catch((error: unknown) =>
        console.error(JSON.stringify({ level: 'error', msg: 'TTL sweep failed', error: String(error) })),
      );
  }, sweepSeconds * 1000);
  sweeper.unref();

  return {
    endpoint: `http://127.0.0.1:${port}`,
    sweepExpiredItems: (nowSeconds) => ttl.sweep(nowSeconds),
    async close() {
      clearInterval(sweeper);
      await new Promise<void>((resolve) => gateway.close(() => resolve()));
      // Wait for in-flight writes, then close dynalite so LevelDB flushes and releases its lock.
      await lock.run(async () => undefined);
      backend.destroy();
      await new Promise<void>((resolve) => store.close(() => resolve()));
    },
  };
}
