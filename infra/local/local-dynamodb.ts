/**
 * The embedded DynamoDB: dynalite's request handling on an in-memory store kept in a journal under
 * DATA_DIR (dynalite-store.ts), behind a small gateway that adds what dynalite lacks:
 * TransactWriteItems / TransactGetItems, TTL, a stream, and DynamoDB's behaviour under concurrency
 * (item-locks.ts: overlapping transactions cancel one another with TransactionConflict, a plain write to
 * an item a transaction holds fails with TransactionConflictException). Clients reach the gateway at its
 * endpoint over HTTP exactly as they would DynamoDB; SDK clients in this process reach the same gateway
 * at the same endpoint without a socket (shared/clients/in-process-endpoints.ts). dynalite itself is
 * called in process (dynalite-in-process.ts): no HTTP between the gateway and the store; a GetItem or
 * BatchGetItem of whole items is answered from the store's JSON text (dynalite-store-reads.ts).
 *
 * For tests, two things DynamoDB does that a local store does not: index reads that lag the table
 * (`indexLagMs`, index-lag.ts: index queries answer items as they stood that long ago, so code that needs
 * read-your-writes through an index is found), and faults on demand (`injectFault`).
 */
import { randomUUID } from 'node:crypto';
import http, { type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { crc32 } from 'node:zlib';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { serveInProcess } from '#shared/clients/in-process-endpoints.ts';
import { callDynalite } from './dynalite-in-process.ts';
import { batchGetFromStore, getItemFromStore, peekItem } from './dynalite-store-reads.ts';
import { openLocalDynamoDbStore } from './dynamodb-data-folder.ts';
import { DynamoDbWireError, type WireCall } from './dynamodb-errors.ts';
import { LocalStream } from './dynamodb-stream.ts';
import { LocalTransactions } from './dynamodb-transactions.ts';
import { LocalTimeToLive } from './dynamodb-ttl.ts';
import { IndexLag } from './index-lag.ts';
import { ItemLocks } from './item-locks.ts';
import { KeySchemas } from './key-schemas.ts';
import { readBody } from './read-body.ts';

/**
 * What a test can make the next call of one action do: fail as throttled, be cancelled by a conflict,
 * be applied and then lose its response (as a timeout after a commit does), be applied only after
 * SLOW_CALL_MS (a call that outlives its client's deadline), or wait until `releaseHeld()`: a transaction
 * holding its items, to show what meets a running transaction; a plain write (PutItem, UpdateItem,
 * DeleteItem, BatchWriteItem) before it is carried out, holding nothing, to stop its caller between two
 * steps while others go on.
 */
export type Fault = 'throttle' | 'conflict' | 'lose-response' | 'slow' | 'hold';

/** How long a call under the 'slow' fault waits before it is carried out. */
export const SLOW_CALL_MS = 500;

export interface LocalDynamoDb {
  endpoint: string;
  /** Deletes expired items now (the sweeper also runs on its own every `ttlSweepSeconds`). */
  sweepExpiredItems(nowSeconds?: number): Promise<number>;
  /**
   * The next `count` calls of `action` (e.g. TransactWriteItems) meet `fault`; with `when`, only calls whose
   * request (the wire JSON, as a string) it accepts, so one write among many parallel ones can be made to fail.
   */
  injectFault(action: string, fault: Fault, count?: number, when?: (request: string) => boolean): void;
  /** Resolves once a call waits under the 'hold' fault (a transaction holding its items, or a plain write). */
  whenHolding(): Promise<void>;
  /** Lets the calls held under the 'hold' fault go on. */
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
  ExpressionAttributeNames?: Record<string, string>;
  Item: Item;
  Key: Item;
  RequestItems: Record<string, unknown>;
  ReturnValues?: string;
}
/**
 * What the gateway answers a call: a status and the JSON body (an error's, when the status is not 200),
 * or, for an answer made from the store's text (dynalite-store-reads.ts), that JSON text.
 */
type Answer = BodyAnswer | { status: 200; text: string };
interface BodyAnswer {
  status: number;
  body: Record<string, unknown>;
}

const answerBytes = (answer: Answer) =>
  Buffer.from('text' in answer ? answer.text : JSON.stringify(answer.body));

function listen(server: http.Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve((server.address() as AddressInfo).port));
  });
}

/** The headers DynamoDB sends with a body. */
const wireHeaders = (body: Buffer): Record<string, string> => ({
  'content-type': 'application/x-amz-json-1.0',
  'content-length': String(body.length),
  'x-amzn-requestid': randomUUID(),
  'x-amz-crc32': String(crc32(body)),
});

function reply(res: ServerResponse, answer: Answer): void {
  const bytes = answerBytes(answer);
  res.writeHead(answer.status, wireHeaders(bytes));
  res.end(bytes);
}

/** What a failure in the gateway itself answers (a bug, or a fault a test asked for). */
const failureAnswer = (error: unknown): BodyAnswer => {
  const wire =
    error instanceof DynamoDbWireError
      ? error
      : new DynamoDbWireError(
          'InternalServerError',
          `Embedded DynamoDB failed: ${(error as Error).message}`,
          {},
          500,
        );
  return { status: wire.statusCode, body: wire.toJSON() };
};

/** The fields of a GetItem the gateway answers from the store directly (no projection, no capacity). */
const PEEKABLE = new Set(['TableName', 'Key', 'ConsistentRead']);

/** What a client sees when a connection drops before the answer (the 'lose-response' fault). */
const connectionReset = () => Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });

const FAULT_ERRORS: Record<'throttle' | 'conflict', () => DynamoDbWireError> = {
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
  /** How long a transaction holds its items before it commits, as DynamoDB's takes (default 0). */
  transactionMs?: number;
  /** How long a new table stays CREATING (refusing item calls), as DynamoDB's do for seconds (default 0). */
  createTableMs?: number;
}): Promise<LocalDynamoDb> {
  const store = await openLocalDynamoDbStore(options.dataDir, { createTableMs: options.createTableMs });
  /** dynalite's answer to one call, as its HTTP server gave it. */
  const forward = (action: string, input: object): Promise<BodyAnswer> =>
    callDynalite(store, action, input as Record<string, unknown>);
  /**
   * The same, for the gateway's own reads and writes: failures as errors. A plain consistent GetItem of a
   * well-formed key (a snapshot, an image) is read straight from the store.
   */
  const call: WireCall = async (action, input) => {
    if (action === 'GetItem' && Object.keys(input).every((field) => PEEKABLE.has(field))) {
      const peeked = peekItem(store, String(input.TableName), input.Key);
      if (peeked) return peeked.item ? { Item: peeked.item } : {};
    }
    const { status, body } = await forward(action, input);
    if (status !== 200) throw DynamoDbWireError.fromAnswer(status, body);
    return body;
  };
  const keys = new KeySchemas(call);
  const locks = new ItemLocks();
  const indexLag = new IndexLag(options.indexLagMs ?? 0, keys);
  const stream = new LocalStream();
  const transactions = new LocalTransactions(
    call,
    keys,
    locks,
    async (ids, before, after) => {
      indexLag.written(ids, before);
      await streamed(ids, before, after);
    },
    options.transactionMs ?? 0,
    (apply) => store.atomically(apply),
  );
  const ttl = new LocalTimeToLive(call, `${options.dataDir}/dynamodb-ttl.json`, keys, locks);
  const faults = new Map<string, { fault: Fault; when?: (request: string) => boolean }[]>();
  /** The first fault waiting for this call, taken off the queue. */
  const faultFor = (action: string, body: string): Fault | undefined => {
    const queue = faults.get(action);
    if (!queue || queue.length === 0) return undefined;
    const index = queue.findIndex((entry) => !entry.when || entry.when(body));
    return index < 0 ? undefined : queue.splice(index, 1)[0]?.fault;
  };
  let holding = holdGate();
  const hold = async () => {
    holding.started();
    await holding.released;
  };
  const inFlight = new Set<Promise<unknown>>();

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

  /** An index query or scan, answered as the lagging index would answer it. */
  async function lagged(action: string, input: WireInput): Promise<BodyAnswer> {
    if (!indexLag.enabled || !input.IndexName) return forward(action, input);
    const { sent, narrow } = await indexLag.widened(input);
    const answer = await forward(action, sent);
    const result = answer.body as { Items?: Item[]; Count?: number };
    if (answer.status !== 200 || !result.Items) return answer;
    const selective = input.ProjectionExpression !== undefined;
    const items = narrow(await indexLag.lagged(input.TableName, input.IndexName, result.Items, selective));
    return { ...answer, body: { ...result, Items: items, Count: items.length } };
  }

  /** The images of items as they are now. */
  const imagesOf = (ids: readonly string[]) =>
    Promise.all(
      ids.map(async (id) => {
        const { table, key } = keys.parseItemId(id);
        const { Item } = await call('GetItem', { TableName: table, Key: key, ConsistentRead: true });
        return Item as Item | undefined;
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
  async function writeWithImages(action: string, input: WireInput, ids: string[]) {
    if (action === 'BatchWriteItem') {
      // Its requests tell the images after it (each put's item, nothing after a delete), in the order
      // `targets` gave the ids; dynalite applies a whole batch (nothing is left unprocessed).
      const before = await imagesOf(ids);
      const answer = await forward(action, input);
      const requests = Object.values(
        input.RequestItems as Record<string, { PutRequest?: { Item: Item }; DeleteRequest?: unknown }[]>,
      ).flat();
      return { answer, before, after: requests.map((r) => r.PutRequest?.Item) };
    }
    const own = (input.ReturnValues ?? 'NONE') === 'NONE';
    if (!own) {
      const before = await imagesOf(ids);
      const answer = await forward(action, input);
      return { answer, before, after: answer.status === 200 ? await imagesOf(ids) : [] };
    }
    const before = action === 'UpdateItem' ? await imagesOf(ids) : undefined;
    const returning = action === 'UpdateItem' ? 'ALL_NEW' : 'ALL_OLD';
    const answer = await forward(action, { ...input, ReturnValues: returning });
    if (answer.status !== 200) return { answer, before: [], after: [] };
    const { Attributes: returned, ...asked } = answer.body as { Attributes?: Item };
    const stripped = { ...answer, body: asked };
    if (action === 'UpdateItem') return { answer: stripped, before: before ?? [], after: [returned] };
    return { answer: stripped, before: [returned], after: [action === 'PutItem' ? input.Item : undefined] };
  }

  /** One call, however it arrived: the gateway's whole behaviour. `body` is the request's JSON text. */
  async function handle(action: string, body: string): Promise<Answer | 'lost'> {
    const input = JSON.parse(body || '{}') as WireInput;
    const fault = faultFor(action, body);
    if (fault === 'throttle' || fault === 'conflict') throw FAULT_ERRORS[fault]();
    if (fault === 'slow') await new Promise((resolve) => setTimeout(resolve, SLOW_CALL_MS));
    const after = (answer: Answer): Answer | 'lost' => (fault === 'lose-response' ? 'lost' : answer);
    switch (action) {
      case 'TransactWriteItems':
        return after({
          status: 200,
          body: await transactions.transactWrite(input as never, fault === 'hold' ? hold : undefined),
        });
      case 'TransactGetItems':
        return { status: 200, body: await transactions.transactGet(input as never) };
      case 'UpdateTimeToLive':
        return { status: 200, body: await ttl.update(input as never) };
      case 'DescribeTimeToLive':
        return { status: 200, body: await ttl.describe(input as never) };
      case 'PutItem':
      case 'UpdateItem':
      case 'DeleteItem':
      case 'BatchWriteItem': {
        // Before it takes its items: a held plain write stops only its caller.
        if (fault === 'hold') await hold();
        const ids = await targets(action, input);
        if (!locks.beginWrites(ids)) {
          throw new DynamoDbWireError('TransactionConflictException', 'Transaction is ongoing for the item');
        }
        try {
          const { answer, before, after: written } = await writeWithImages(action, input, ids);
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
      case 'BatchGetItem': {
        await locks.whenFree(await targets(action, input));
        // Whole items by well-formed keys are written from the store's text; dynalite answers the rest.
        const request = input as unknown as Record<string, unknown>;
        const text =
          action === 'GetItem' ? getItemFromStore(store, request) : batchGetFromStore(store, request);
        return text === undefined ? forward(action, input) : { status: 200, text };
      }
      case 'Query':
      case 'Scan':
        return lagged(action, input);
      default:
        return forward(action, input);
    }
  }

  /** `handle`, counted among the calls in flight (close waits for them), failures as answers. */
  function answer(action: string, body: string): Promise<Answer | 'lost'> {
    const work = handle(action, body).catch(failureAnswer);
    inFlight.add(work);
    return work.finally(() => inFlight.delete(work));
  }
  const actionOf = (target: string | string[] | undefined) => String(target ?? '').split('.')[1] ?? '';

  const gateway = http.createServer(async (req, res) => {
    try {
      const body = (await readBody(req)).toString('utf8');
      const outcome = await answer(actionOf(req.headers['x-amz-target']), body);
      if (outcome === 'lost') res.destroy();
      else reply(res, outcome);
    } catch {
      res.destroy();
    }
  });
  const port = await listen(gateway, options.port ?? 0, '127.0.0.1');
  const endpoint = `http://127.0.0.1:${port}`;
  const stopServing = serveInProcess(endpoint, async (request) => {
    const outcome = await answer(actionOf(request.headers['x-amz-target']), request.body);
    if (outcome === 'lost') throw connectionReset();
    const bytes = answerBytes(outcome);
    return { statusCode: outcome.status, headers: wireHeaders(bytes), body: bytes };
  });

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
    endpoint,
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
      stopServing();
      await new Promise<void>((resolve) => {
        gateway.close(() => resolve());
        gateway.closeAllConnections();
      });
      // Wait for calls in flight and the stream's consumer, then write the journal out and close it.
      await Promise.allSettled(inFlight);
      await stream.close();
      store.close();
    },
  };
}
