/**
 * DynamoDB Streams for the embedded DynamoDB (dynalite has none): the gateway reports every item a
 * committed write changed, with its images from before and after (NEW_AND_OLD_IMAGES), and a poller
 * hands them to the consumer in commit order, in batches, as Lambda's event source mapping does: a
 * batch that fails is retried, whole, until it succeeds, and the next waits. The records live in
 * memory: the embedded stack drains them before it closes. TTL deletions are not reported: the one
 * consumer (the change recorder) ignores the expiring items anyway.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';

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

export class LocalStream {
  private readonly pending: StreamRecord[] = [];
  private sequence = 0;
  private consumer: StreamConsumer | undefined;
  private delivering: Promise<void> | undefined;
  private closed = false;

  /** An item a committed write changed: `before` and `after` undefined when it did not (or no longer) exist. */
  changed(key: Item, before: Item | undefined, after: Item | undefined): void {
    if (!before && !after) return;
    this.sequence += 1;
    const sequenceNumber = String(this.sequence).padStart(21, '0');
    this.pending.push({
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
    });
    this.deliverSoon();
  }

  /** The one consumer (a stream has one event source mapping here); records written before it wait. */
  consume(consumer: StreamConsumer): void {
    this.consumer = consumer;
    this.deliverSoon();
  }

  /** Resolves once every record reported so far has been consumed. */
  async drain(): Promise<void> {
    while (this.delivering) await this.delivering;
  }

  /** Stops delivering (call `drain()` first to deliver what is left while the table still answers). */
  async close(): Promise<void> {
    this.closed = true;
    await this.delivering;
  }

  private deliverSoon(): void {
    if (this.delivering || !this.consumer || this.closed || this.pending.length === 0) return;
    this.delivering = this.deliver().finally(() => {
      this.delivering = undefined;
      this.deliverSoon();
    });
  }

  private async deliver(): Promise<void> {
    const consumer = this.consumer as StreamConsumer;
    // Gather what arrives meanwhile into one batch, as Lambda's polling of a stream does (4 times a second).
    await new Promise((resolve) => setTimeout(resolve, BATCHING_WINDOW_MS));
    while (this.pending.length > 0 && !this.closed) {
      const batch = this.pending.slice(0, BATCH_SIZE);
      try {
        await consumer({ Records: batch });
        this.pending.splice(0, batch.length);
      } catch (error) {
        console.error(
          JSON.stringify({ level: 'error', msg: 'Stream batch failed; retrying', error: String(error) }),
        );
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      }
    }
  }
}
