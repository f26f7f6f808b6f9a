/**
 * DynamoDB Streams for the embedded DynamoDB (dynalite has none): the gateway reports every item a
 * committed write changed, with its images from before and after (NEW_AND_OLD_IMAGES), and a poller per
 * consumer hands them over in commit order, in batches, as Lambda's event source mappings do (a stream
 * takes two): each consumer reads on its own, only the records its filter takes, and a batch that
 * fails is retried, whole, until it succeeds while the next waits. The records live in memory: the
 * embedded stack drains them before it closes. TTL deletions are not reported: the consumers (the
 * change recorder, the webhook dispatcher) ignore expiring items anyway.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { type EventPattern, matchesPattern } from './event-pattern.ts';

type Item = Record<string, AttributeValue>;

/** A record as Lambda receives it from a DynamoDB stream (the parts the consumer reads). */
export interface StreamRecord {
  eventID: string;
  eventName: 'INSERT' | 'MODIFY' | 'REMOVE';
  eventSource: 'aws:dynamodb';
  dynamodb: {
    Keys: Item;
    NewImage?: Item;
    OldImage?: Item;
    SequenceNumber: string;
    ApproximateCreationDateTime: number;
    StreamViewType: 'NEW_AND_OLD_IMAGES';
  };
}

export type StreamConsumer = (event: { Records: StreamRecord[] }) => Promise<void>;

const BATCH_SIZE = 100;
const RETRY_MS = 200;
const BATCHING_WINDOW_MS = 50;

/** One reader of the stream: its filter, and what it has not yet consumed. */
class Reader {
  readonly pending: StreamRecord[] = [];
  delivering: Promise<void> | undefined;

  constructor(
    readonly consumer: StreamConsumer,
    readonly filter: EventPattern | undefined,
  ) {}
}

export class LocalStream {
  private readonly readers: Reader[] = [];
  /** Records reported before any consumer came (the first one takes them). */
  private readonly early: StreamRecord[] = [];
  /**
   * Sequence numbers only grow, across restarts too, as a stream's do: the change feed's changeIds and
   * webhook ids are made from them, and a client skips an id it has seen. Each start counts on from its
   * start time in milliseconds times a million: a run would have to report a million records a millisecond
   * to reach the numbers of a later start.
   */
  private sequence = BigInt(Date.now()) * 1_000_000n;
  private closed = false;

  /** An item a committed write changed: `before` and `after` undefined when it did not (or no longer) exist. */
  changed(key: Item, before: Item | undefined, after: Item | undefined): void {
    if (!before && !after) return;
    this.sequence += 1n;
    const sequenceNumber = String(this.sequence).padStart(21, '0');
    const record: StreamRecord = {
      eventID: `local-${sequenceNumber}`,
      eventName: !before ? 'INSERT' : !after ? 'REMOVE' : 'MODIFY',
      eventSource: 'aws:dynamodb',
      dynamodb: {
        Keys: key,
        ...(after ? { NewImage: after } : {}),
        ...(before ? { OldImage: before } : {}),
        SequenceNumber: sequenceNumber,
        ApproximateCreationDateTime: Math.floor(Date.now() / 1000),
        StreamViewType: 'NEW_AND_OLD_IMAGES',
      },
    };
    if (this.readers.length === 0) this.early.push(record);
    for (const reader of this.readers) {
      if (reader.filter && !matchesPattern(reader.filter, record)) continue;
      reader.pending.push(record);
      this.deliverSoon(reader);
    }
  }

  /**
   * A consumer of the records from now on (records written before a first consumer wait for it), those
   * `filter` takes when one is given (Lambda event filtering).
   */
  consume(consumer: StreamConsumer, filter?: EventPattern): void {
    const reader = new Reader(consumer, filter);
    if (this.readers.length === 0) {
      reader.pending.push(...this.early.splice(0).filter((r) => !filter || matchesPattern(filter, r)));
    }
    this.readers.push(reader);
    this.deliverSoon(reader);
  }

  /** Resolves once every record reported so far has been consumed. */
  async drain(): Promise<void> {
    for (;;) {
      const busy = this.readers.find((reader) => reader.delivering);
      if (!busy) return;
      await busy.delivering;
    }
  }

  /** Stops delivering (call `drain()` first to deliver what is left while the table still answers). */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.readers.map((reader) => reader.delivering));
  }

  private deliverSoon(reader: Reader): void {
    if (reader.delivering || this.closed || reader.pending.length === 0) return;
    reader.delivering = this.deliver(reader).finally(() => {
      reader.delivering = undefined;
      this.deliverSoon(reader);
    });
  }

  private async deliver(reader: Reader): Promise<void> {
    // Gather what arrives meanwhile into one batch, as Lambda's polling of a stream does (4 times a second).
    await new Promise((resolve) => setTimeout(resolve, BATCHING_WINDOW_MS));
    while (reader.pending.length > 0 && !this.closed) {
      const batch = reader.pending.slice(0, BATCH_SIZE);
      try {
        await reader.consumer({ Records: batch });
        reader.pending.splice(0, batch.length);
      } catch (error) {
        console.error(
          JSON.stringify({ level: 'error', msg: 'Stream batch failed; retrying', error: String(error) }),
        );
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      }
    }
  }
}
