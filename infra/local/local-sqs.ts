/**
 * SQS for the embedded stack: queues that functions send to (SendMessage, SendMessageBatch over SQS's
 * JSON protocol, at an endpoint served over HTTP and in process), and a poller per queue that hands its
 * messages to the consuming function as Lambda's event source mapping does: batches of up to 10 visible
 * messages as an SQS event, several batches at once; a message the function reports failed
 * (batchItemFailures, or every message of a batch that threw) comes back after the visibility timeout,
 * and after `maxReceiveCount` receives goes to the queue's dead-letter queue. DelaySeconds (up to 900)
 * hold a message back. Messages are kept in a file under the data folder, so a restart loses none.
 */
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { serveInProcess } from '#shared/clients/in-process-endpoints.ts';
import { readBody } from './read-body.ts';

export type QueueConsumer = (event: SQSEvent) => Promise<SQSBatchResponse | undefined>;

export interface LocalQueueSettings {
  consumer: QueueConsumer;
  /** How long a received message stays hidden before it can be received again (SQS default 30). */
  visibilityTimeoutSeconds?: number;
  /** Receives before a message goes to the dead-letter queue. */
  maxReceiveCount?: number;
  batchSize?: number;
  /** Batches handed over at once. */
  concurrency?: number;
}

export interface LocalSqs {
  endpoint: string;
  queueUrl(name: string): string;
  /** Settles when no batch is being consumed and no message is visible (delayed ones may wait). */
  idle(): Promise<void>;
  /** Messages that went to a queue's dead-letter queue. */
  deadLetters(name: string): StoredMessage[];
  close(): Promise<void>;
}

interface StoredMessage {
  messageId: string;
  body: string;
  sentAt: number;
  visibleAt: number;
  receiveCount: number;
}

const ACCOUNT = '000000000000';
const MAX_DELAY_SECONDS = 900;
const MAX_BODY_BYTES = 256 * 1024;

class SqsError extends Error {
  constructor(
    readonly type: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

const md5 = (text: string) => createHash('md5').update(text).digest('hex');

class Queue {
  messages: StoredMessage[] = [];
  dead: StoredMessage[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    readonly name: string,
    private readonly file: string,
    private readonly settings: Required<LocalQueueSettings>,
    private readonly run: <T>(fn: () => T) => T,
  ) {
    if (existsSync(file)) {
      const kept = JSON.parse(readFileSync(file, 'utf8')) as {
        messages: StoredMessage[];
        dead: StoredMessage[];
      };
      this.messages = kept.messages;
      this.dead = kept.dead;
    }
    this.schedule();
  }

  /** Takes messages in (one call, one write of the queue's file). */
  send(incoming: { body: string; delaySeconds: number }[]): StoredMessage[] {
    const now = Date.now();
    const sent = incoming.map(({ body, delaySeconds }) => ({
      messageId: randomUUID(),
      body,
      sentAt: now,
      visibleAt: now + delaySeconds * 1000,
      receiveCount: 0,
    }));
    this.messages.push(...sent);
    this.save();
    this.schedule();
    return sent;
  }

  /** Hands visible messages over, batch by batch, up to the concurrency; waits for the next otherwise. */
  private schedule(): void {
    if (this.closed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const now = Date.now();
    const received: StoredMessage[][] = [];
    while (this.inFlight.size + received.length < this.settings.concurrency) {
      const batch = this.messages.filter((m) => m.visibleAt <= now).slice(0, this.settings.batchSize);
      if (batch.length === 0) break;
      for (const message of batch) {
        message.receiveCount += 1;
        message.visibleAt = now + this.settings.visibilityTimeoutSeconds * 1000;
      }
      received.push(batch);
    }
    // Received is kept before it is handed over: after a crash, as in SQS, what was being handled stays
    // hidden until its visibility timeout, rather than coming back at once to meet its handler's claims.
    if (received.length > 0) this.save();
    for (const batch of received) {
      const work = this.consume(batch).finally(() => {
        this.inFlight.delete(work);
        this.schedule();
      });
      this.inFlight.add(work);
    }
    const next = Math.min(...this.messages.map((m) => m.visibleAt));
    if (Number.isFinite(next) && this.inFlight.size < this.settings.concurrency) {
      this.timer = setTimeout(() => this.schedule(), Math.max(0, next - now));
      this.timer.unref();
    }
  }

  private async consume(batch: StoredMessage[]): Promise<void> {
    const records: SQSRecord[] = batch.map((m) => ({
      messageId: m.messageId,
      receiptHandle: `${m.messageId}#${m.receiveCount}`,
      body: m.body,
      attributes: {
        ApproximateReceiveCount: String(m.receiveCount),
        SentTimestamp: String(m.sentAt),
        SenderId: ACCOUNT,
        ApproximateFirstReceiveTimestamp: String(Date.now()),
      },
      messageAttributes: {},
      md5OfBody: md5(m.body),
      eventSource: 'aws:sqs',
      eventSourceARN: `arn:aws:sqs:us-east-1:${ACCOUNT}:${this.name}`,
      awsRegion: 'us-east-1',
    }));
    let failed: Set<string>;
    try {
      const answer = await this.run(() => this.settings.consumer({ Records: records }));
      failed = new Set((answer?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
    } catch (error) {
      console.error(
        JSON.stringify({ level: 'error', msg: 'Queue batch failed', queue: this.name, error: String(error) }),
      );
      failed = new Set(batch.map((m) => m.messageId));
    }
    // Handled messages leave the queue, and so do those out of receives (to the dead letters): one pass.
    const gone = new Set<StoredMessage>();
    for (const message of batch) {
      if (!failed.has(message.messageId)) {
        gone.add(message);
      } else if (message.receiveCount >= this.settings.maxReceiveCount) {
        gone.add(message);
        this.dead.push(message);
        console.error(
          JSON.stringify({
            level: 'error',
            msg: 'Message moved to the dead-letter queue',
            queue: this.name,
            messageId: message.messageId,
          }),
        );
      }
    }
    if (gone.size > 0) this.messages = this.messages.filter((m) => !gone.has(m));
    this.save();
  }

  /** Writes the queue to its file (aside, then renamed over it). */
  private save(): void {
    writeFileSync(`${this.file}.new`, JSON.stringify({ messages: this.messages, dead: this.dead }));
    renameSync(`${this.file}.new`, this.file);
  }

  busy(): boolean {
    return this.inFlight.size > 0 || this.messages.some((m) => m.visibleAt <= Date.now());
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    await Promise.allSettled([...this.inFlight]);
  }
}

export async function startLocalSqs(options: {
  dataDir: string;
  queues: Record<string, LocalQueueSettings>;
  run: <T>(fn: () => T) => T;
}): Promise<LocalSqs> {
  let endpoint = '';
  const queues = new Map(
    Object.entries(options.queues).map(([name, settings]) => [
      name,
      new Queue(
        name,
        join(options.dataDir, `sqs-${name}.json`),
        { visibilityTimeoutSeconds: 30, maxReceiveCount: 5, batchSize: 10, concurrency: 4, ...settings },
        options.run,
      ),
    ]),
  );
  const queueOf = (url: unknown) => {
    const name = typeof url === 'string' ? url.slice(url.lastIndexOf('/') + 1) : '';
    const queue = queues.get(name);
    if (!queue) throw new SqsError('QueueDoesNotExist', 'The specified queue does not exist.');
    return queue;
  };
  const delayOf = (delay: unknown) => {
    const seconds = delay === undefined ? 0 : Number(delay);
    if (!Number.isInteger(seconds) || seconds < 0 || seconds > MAX_DELAY_SECONDS) {
      throw new SqsError('InvalidParameterValue', `DelaySeconds must be from 0 to ${MAX_DELAY_SECONDS}`);
    }
    return seconds;
  };
  const bodyOf = (body: unknown) => {
    if (typeof body !== 'string' || body.length === 0)
      throw new SqsError('MissingParameter', 'MessageBody is required');
    if (Buffer.byteLength(body) > MAX_BODY_BYTES) {
      throw new SqsError('InvalidParameterValue', `MessageBody must be at most ${MAX_BODY_BYTES} bytes`);
    }
    return body;
  };

  /** One SQS call (the action of its X-Amz-Target), its JSON in and out. */
  function call(action: string, input: Record<string, unknown>): Record<string, unknown> {
    switch (action) {
      case 'SendMessage': {
        const queue = queueOf(input.QueueUrl);
        const body = bodyOf(input.MessageBody);
        const [message] = queue.send([{ body, delaySeconds: delayOf(input.DelaySeconds) }]);
        return { MessageId: message?.messageId, MD5OfMessageBody: md5(body) };
      }
      case 'SendMessageBatch': {
        const queue = queueOf(input.QueueUrl);
        const entries = (input.Entries ?? []) as {
          Id: string;
          MessageBody: unknown;
          DelaySeconds?: unknown;
        }[];
        if (entries.length === 0)
          throw new SqsError('EmptyBatchRequest', 'There should be at least one entry');
        if (entries.length > 10) throw new SqsError('TooManyEntriesInBatchRequest', 'At most 10 entries');
        if (new Set(entries.map((e) => e.Id)).size !== entries.length) {
          throw new SqsError('BatchEntryIdsNotDistinct', 'Two or more batch entries have the same Id.');
        }
        const checked = entries.map((e) => ({
          id: e.Id,
          body: bodyOf(e.MessageBody),
          delay: delayOf(e.DelaySeconds),
        }));
        const sent = queue.send(checked.map(({ body, delay }) => ({ body, delaySeconds: delay })));
        return {
          Successful: checked.map(({ id, body }, i) => ({
            Id: id,
            MessageId: sent[i]?.messageId,
            MD5OfMessageBody: md5(body),
          })),
          Failed: [],
        };
      }
      case 'GetQueueUrl': {
        const name = String(input.QueueName ?? '');
        if (!queues.has(name)) throw new SqsError('QueueDoesNotExist', 'The specified queue does not exist.');
        return { QueueUrl: `${endpoint}/${ACCOUNT}/${name}` };
      }
      default:
        throw new SqsError('UnsupportedOperation', `The embedded SQS does not do ${action}`);
    }
  }

  const answer = (target: string | undefined, body: string) => {
    const action = String(target ?? '').split('.')[1] ?? '';
    try {
      return { status: 200, body: JSON.stringify(call(action, JSON.parse(body || '{}'))) };
    } catch (error) {
      const known = error instanceof SqsError ? error : new SqsError('InternalError', String(error), 500);
      return {
        status: known.status,
        body: JSON.stringify({ __type: `com.amazonaws.sqs#${known.type}`, message: known.message }),
      };
    }
  };
  const headers = (body: string) => ({
    'content-type': 'application/x-amz-json-1.0',
    'content-length': String(Buffer.byteLength(body)),
    'x-amzn-requestid': randomUUID(),
  });

  const server = http.createServer(async (req, res) => {
    const { status, body } = answer(
      req.headers['x-amz-target'] as string | undefined,
      (await readBody(req)).toString('utf8'),
    );
    res.writeHead(status, headers(body));
    res.end(body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const stopServing = serveInProcess(endpoint, async (request) => {
    const { status, body } = answer(request.headers['x-amz-target'], request.body);
    return { statusCode: status, headers: headers(body), body: Buffer.from(body) };
  });

  return {
    endpoint,
    queueUrl: (name) => `${endpoint}/${ACCOUNT}/${name}`,
    async idle() {
      while ([...queues.values()].some((queue) => queue.busy())) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    deadLetters: (name) => [...(queues.get(name)?.dead ?? [])],
    async close() {
      stopServing();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await Promise.all([...queues.values()].map((queue) => queue.close()));
    },
  };
}
