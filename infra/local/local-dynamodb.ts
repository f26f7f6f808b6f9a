/**
 * The embedded DynamoDB: dynalite (LevelDB files under DATA_DIR) behind a small gateway that adds what
 * dynalite lacks: TransactWriteItems / TransactGetItems, TTL, and DynamoDB's behaviour under concurrency
 * (item-locks.ts: overlapping transactions cancel one another with TransactionConflict, a plain write to
 * an item a transaction holds fails with TransactionConflictException). Clients talk to the gateway's
 * endpoint exactly as they would to DynamoDB.
 *
 * For tests, two things DynamoDB does that a local store does not: index reads that lag the table
 * (`indexLagMs`, index-lag.ts: index queries answer items as they stood that long ago, so code that needs
 * read-your-writes through an index is found), and faults on demand (`injectFault`).
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { type AttributeValue, DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import dynalite from 'dynalite';
import { EMBEDDED_CREDENTIALS } from '#shared/clients/aws-client-settings.ts';
import { DynamoDbWireError } from './dynamodb-errors.ts';
import { LocalStream } from './dynamodb-stream.ts';
import { LocalTransactions } from './dynamodb-transactions.ts';
import { LocalTimeToLive } from './dynamodb-ttl.ts';
import { IndexLag } from './index-lag.ts';
import { ItemLocks } from './item-locks.ts';
import { KeySchemas } from './key-schemas.ts';
import { readBody } from './read-body.ts';

/**
 * What a test can make the next call of one action do: fail as throttled, be cancelled by a conflict,
 * or (transactions) be applied and then lose its response, as a timeout after a commit does, or hold
 * its items until `releaseHeld()`, to show what meets a running transaction.
 */
export type Fault = 'throttle' | 'conflict' | 'lose-response' | 'hold';

export interface LocalDynamoDb {
  endpoint: string;
  /** Deletes expired items now (the sweeper also runs on its own every `ttlSweepSeconds`). */
  sweepExpiredItems(nowSeconds?: number): Promise<number>;
  /**
   * The next `count` calls of `action` (e.g. TransactWriteItems) meet `fault`; with `when`, only calls whose
   * request (the wire JSON, as a string) it accepts, so one write among many parallel ones can be made to fail.
   */
  injectFault(action: string, fault: Fault, count?: number, when?: (request: string) => boolean): void;
  /** Resolves once a transaction holds its items under the 'hold' fault. */
  whenHolding(): Promise<void>;
  /** Lets the transactions held under the 'hold' fault go on. */
  releaseHeld(): void;
  /** From now on, index queries answer items as they stood `ms` ago (0: at once). */
  setIndexLag(ms: number): void;
  /** The table's stream (NEW_AND_OLD_IMAGES): every item a committed write changed, in commit order. */
  stream: LocalStream;
  close(): Promise<void>;
}

type Item = Record<string, AttributeValue>;
/** The parts of a request body the gateway reads. */
interface WireInput {
  TableName: string;
  IndexName?: string;
  ProjectionExpression?: string;
  Item: Item;
  Key: Item;
  RequestItems: Record<string, unknown>;
  ReturnValues?: string;
}
interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

function listen(server: http.Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve((server.address() as AddressInfo).port));
  });
}

const json = (status: number, body: string): Answer => ({ status, headers: {}, body: Buffer.from(body) });

function reply(res: ServerResponse, { status, headers, body }: Answer): void {
  res.writeHead(status, {
    ...headers,
    'content-type': 'application/x-amz-json-1.0',
    'content-length': body.length,
    'x-amzn-requestid': String(headers['x-amzn-requestid'] ?? randomUUID()),
    'x-amz-crc32': String(crc32(body)),
  });
  res.end(body);
}

const FAULT_ERRORS: Record<Exclude<Fault, 'lose-response' | 'hold'>, () => DynamoDbWireError> = {
  throttle: () =>
    new DynamoDbWireError(
      'ProvisionedThroughputExceededException',
      'The level of configured provisioned throughput for the table was exceeded',
    ),
  conflict: () =>
    new DynamoDbWireError(
      'TransactionCanceledException',
      'Transaction cancelled, please refer cancellation reasons for specific reasons [TransactionConflict]',
      {
        CancellationReasons: [
          { Code: 'TransactionConflict', Message: 'Transaction is ongoing for the item' },
        ],
      },
    ),
};

/** Signals that a transaction holds its items, and lets it go on when released. */
function holdGate() {
  let started!: () => void;
  let release!: () => void;
  const startedOnce = new Promise<void>((resolve) => {
    started = resolve;
  });
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { started, startedOnce, release, released };
}

export async function startLocalDynamoDb(options: {
  dataDir: string;
  port?: number;
  ttlSweepSeconds?: number;
  /** Index queries answer items as they stood this long ago (default 0: no lag). */
  indexLagMs?: number;
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
  const keys = new KeySchemas(backend);
  const locks = new ItemLocks();
  const indexLag = new IndexLag(options.indexLagMs ?? 0, keys);
  const stream = new LocalStream();
  const transactions = new LocalTransactions(backend, keys, locks, async (ids, before, after) => {
    indexLag.written(ids, before);
    await streamed(ids, before, after);
  });
  const ttl = new LocalTimeToLive(backend, join(options.dataDir, 'dynamodb-ttl.json'), keys, locks);
  const faults = new Map<string, { fault: Fault; when?: (request: string) => boolean }[]>();
  /** The first fault waiting for this call, taken off the queue. */
  const faultFor = (action: string, body: Buffer): Fault | undefined => {
    const queue = faults.get(action) ?? [];
    const index = queue.findIndex((entry) => !entry.when || entry.when(body.toString('utf8')));
    return index < 0 ? undefined : queue.splice(index, 1)[0]?.fault;
  };
  let holding = holdGate();
  const hold = async () => {
    holding.started();
    await holding.released;
  };
  const inFlight = new Set<Promise<unknown>>();

  const forward = (req: IncomingMessage, body: Buffer) =>
    new Promise<Answer>((resolve, reject) => {
      const upstream = http.request(
        `${storeUrl}${req.url ?? '/'}`,
        {
          method: req.method,
          headers: { ...req.headers, host: `127.0.0.1:${storePort}`, 'content-length': String(body.length) },
        },
        (answer) => {
          const chunks: Buffer[] = [];
          answer.on('data', (c: Buffer) => chunks.push(c));
          answer.on('end', () =>
            resolve({
              status: answer.statusCode ?? 500,
              headers: answer.headers,
              body: Buffer.concat(chunks),
            }),
          );
          answer.on('error', reject);
        },
      );
      upstream.on('error', reject);
      upstream.end(body);
    });

  const idsOf = async (table: string, itemsOrKeys: Item[]) =>
    Promise.all(itemsOrKeys.map(async (item) => keys.itemId(table, await keys.keyOf(table, item))));

  /** The items a plain write or read is about. */
  async function targets(action: string, input: WireInput): Promise<string[]> {
    switch (action) {
      case 'PutItem':
        return idsOf(input.TableName, [input.Item]);
      case 'UpdateItem':
      case 'DeleteItem':
      case 'GetItem':
        return idsOf(input.TableName, [input.Key]);
      case 'BatchWriteItem':
        return (
          await Promise.all(
            Object.entries(
              input.RequestItems as Record<
                string,
                { PutRequest?: { Item: Item }; DeleteRequest?: { Key: Item } }[]
              >,
            ).map(([table, requests]) =>
              idsOf(
                table,
                requests.map((r) => (r.PutRequest?.Item ?? r.DeleteRequest?.Key) as Item),
              ),
            ),
          )
        ).flat();
      case 'BatchGetItem':
        return (
          await Promise.all(
            Object.entries(input.RequestItems as Record<string, { Keys: Item[] }>).map(([table, { Keys }]) =>
              idsOf(table, Keys),
            ),
          )
        ).flat();
      default:
        return [];
    }
  }

  /** An index query's answer as the lagging index would give it. */
  async function lagged(input: WireInput, answer: Answer): Promise<Answer> {
    if (!indexLag.enabled || answer.status !== 200 || !input.IndexName) return answer;
    const result = JSON.parse(answer.body.toString('utf8')) as { Items?: Item[]; Count?: number };
    if (!result.Items) return answer;
    const selective = input.ProjectionExpression !== undefined;
    const items = await indexLag.lagged(input.TableName, input.IndexName, result.Items, selective);
    return { ...answer, body: Buffer.from(JSON.stringify({ ...result, Items: items, Count: items.length })) };
  }

  /** The images of items as they are now (read only while the index lag is modelled). */
  const imagesOf = (ids: readonly string[]) =>
    Promise.all(
      ids.map(async (id) => {
        const { table, key } = keys.parseItemId(id);
        const read = new GetItemCommand({ TableName: table, Key: key, ConsistentRead: true });
        return (await backend.send(read)).Item;
      }),
    );

  /** Reports written items to the stream with their images from before and after (read while held). */
  async function streamed(
    ids: readonly string[],
    before: readonly (Item | undefined)[],
    known: readonly (Item | undefined | null)[] = [],
  ): Promise<void> {
    // Images the write does not tell (null, or not given) are read, while the items are still held.
    const unknown = ids.filter((_id, i) => known[i] === null || i >= known.length);
    const read = new Map(unknown.map((id, i) => [id, i]));
    const images = unknown.length > 0 ? await imagesOf(unknown) : [];
    ids.forEach((id, i) => {
      const after = read.has(id) ? images[read.get(id) as number] : (known[i] ?? undefined);
      stream.changed(keys.parseItemId(id).key, before[i], after);
    });
  }

  /**
   * A plain write, with the item's images from before and after it for the stream. A put or a delete
   * that asks for no return values gets its old image from the write itself (ALL_OLD), and an update its
   * new one (ALL_NEW); the answer the caller sees is the one it asked for. Anything else reads the items.
   */
  async function writeWithImages(
    action: string,
    input: WireInput,
    req: IncomingMessage,
    body: Buffer,
    ids: string[],
  ) {
    if (action === 'BatchWriteItem') {
      // Its requests tell the images after it (each put's item, nothing after a delete), in the order
      // `targets` gave the ids; dynalite applies a whole batch (nothing is left unprocessed).
      const before = await imagesOf(ids);
      const answer = await forward(req, body);
      const requests = Object.values(
        input.RequestItems as Record<string, { PutRequest?: { Item: Item }; DeleteRequest?: unknown }[]>,
      ).flat();
      return { answer, before, after: requests.map((r) => r.PutRequest?.Item) };
    }
    const own = (input.ReturnValues ?? 'NONE') === 'NONE';
    if (!own) {
      const before = await imagesOf(ids);
      const answer = await forward(req, body);
      return { answer, before, after: answer.status === 200 ? await imagesOf(ids) : [] };
    }
    const before = action === 'UpdateItem' ? await imagesOf(ids) : undefined;
    const returning = action === 'UpdateItem' ? 'ALL_NEW' : 'ALL_OLD';
    const answer = await forward(req, Buffer.from(JSON.stringify({ ...input, ReturnValues: returning })));
    if (answer.status !== 200) return { answer, before: [], after: [] };
    const { Attributes: returned, ...asked } = JSON.parse(answer.body.toString('utf8')) as {
      Attributes?: Item;
    };
    const stripped = { ...answer, body: Buffer.from(JSON.stringify(asked)) };
    if (action === 'UpdateItem') return { answer: stripped, before: before ?? [], after: [returned] };
    return { answer: stripped, before: [returned], after: [action === 'PutItem' ? input.Item : undefined] };
  }

  async function handle(action: string, req: IncomingMessage, body: Buffer): Promise<Answer | 'lost'> {
    const input = JSON.parse(body.toString('utf8') || '{}') as WireInput;
    const fault = faultFor(action, body);
    if (fault === 'throttle' || fault === 'conflict') throw FAULT_ERRORS[fault]();
    const after = (answer: Answer): Answer | 'lost' => (fault === 'lose-response' ? 'lost' : answer);
    switch (action) {
      case 'TransactWriteItems':
        return after(
          json(
            200,
            JSON.stringify(
              await transactions.transactWrite(input as never, fault === 'hold' ? hold : undefined),
            ),
          ),
        );
      case 'TransactGetItems':
        return json(200, JSON.stringify(await transactions.transactGet(input as never)));
      case 'UpdateTimeToLive':
        return json(200, JSON.stringify(await ttl.update(input as never)));
      case 'DescribeTimeToLive':
        return json(200, JSON.stringify(await ttl.describe(input as never)));
      case 'PutItem':
      case 'UpdateItem':
      case 'DeleteItem':
      case 'BatchWriteItem': {
        const ids = await targets(action, input);
        if (!locks.beginWrites(ids)) {
          throw new DynamoDbWireError('TransactionConflictException', 'Transaction is ongoing for the item');
        }
        try {
          const { answer, before, after: written } = await writeWithImages(action, input, req, body, ids);
          if (answer.status === 200) {
            indexLag.written(ids, before);
            await streamed(ids, before, written);
          }
          return after(answer);
        } finally {
          locks.endWrites(ids);
        }
      }
      case 'GetItem':
      case 'BatchGetItem':
        await locks.whenFree(await targets(action, input));
        return forward(req, body);
      case 'Query':
      case 'Scan': {
        const answer = await forward(req, body);
        return lagged(input, answer);
      }
      default:
        return forward(req, body);
    }
  }

  const gateway = http.createServer(async (req, res) => {
    const work = (async () => {
      try {
        const body = await readBody(req);
        const action = String(req.headers['x-amz-target'] ?? '').split('.')[1] ?? '';
        const answer = await handle(action, req, body);
        if (answer === 'lost') res.destroy();
        else reply(res, answer);
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
        if (!res.headersSent) reply(res, json(wire.statusCode, wire.toBody()));
        else res.destroy();
      }
    })();
    inFlight.add(work);
    await work;
    inFlight.delete(work);
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
    stream,
    whenHolding: () => holding.startedOnce,
    releaseHeld() {
      holding.release();
      holding = holdGate();
    },
    setIndexLag(ms) {
      indexLag.lag = ms;
    },
    injectFault(action, fault, count = 1, when) {
      const entries = Array.from({ length: count }, () => (when ? { fault, when } : { fault }));
      faults.set(action, [...(faults.get(action) ?? []), ...entries]);
    },
    async close() {
      clearInterval(sweeper);
      await new Promise<void>((resolve) => {
        gateway.close(() => resolve());
        gateway.closeAllConnections();
      });
      // Wait for requests in flight and the stream's consumer, then close dynalite so LevelDB flushes and
      // releases its lock.
      await Promise.allSettled(inFlight);
      await stream.close();
      backend.destroy();
      await new Promise<void>((resolve) => store.close(() => resolve()));
    },
  };
}
