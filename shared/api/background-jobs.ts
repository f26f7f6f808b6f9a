/**
 * Functions no route reaches: started by an operation with an asynchronous invoke, for work longer than
 * a request may take. The stack builds them like operations' functions; the embedded stack runs them
 * in-process behind its own Invoke API.
 */
import { CHANGES_PREFIX } from '#shared/data/keys.ts';
import { FILE_PREFIX, UPLOAD_CHUNK_PREFIX } from '#shared/data/storage-layout.ts';
import { type FunctionDeclaration, NO_BUCKET } from './operation.ts';

export const BACKGROUND_JOBS = {
  /** Streams a large upload's chunks into one file (S3 multipart), with its size and SHA-256. */
  assembleUpload: {
    name: 'assembleUpload',
    handler: 'functions/uploads/assemble-upload.ts',
    access: {
      table: 'readWrite',
      bucket: { read: [UPLOAD_CHUNK_PREFIX], write: [UPLOAD_CHUNK_PREFIX, FILE_PREFIX], tag: [FILE_PREFIX] },
      signsTokens: false,
      verifiesTokens: false,
    },
    memoryMb: 512,
    // Lambda's limit: a 2 GiB file streams through in a few minutes.
    timeoutSeconds: 900,
  },
} as const satisfies Record<string, FunctionDeclaration>;

export type BackgroundJobName = keyof typeof BACKGROUND_JOBS;

/** The environment variable that tells a function the deployed name of a job's function. */
export const JOB_FUNCTION_VARIABLE: Record<BackgroundJobName, string> = {
  assembleUpload: 'ASSEMBLE_UPLOAD_FUNCTION',
};

/**
 * The function on the table's stream: records the change feed from every committed write
 * (shared/services/change-recorder.ts). The stack attaches it to the stream; the embedded stack feeds it
 * from its local stream.
 */
export const CHANGE_RECORDER = {
  name: 'recordChanges',
  handler: 'functions/changes/record-changes.ts',
  access: { table: 'readWrite', bucket: NO_BUCKET, signsTokens: false, verifiesTokens: false },
  memoryMb: 256,
  // A batch of 100 records is a few seconds of puts; a slow one is retried by the stream, not cut.
  timeoutSeconds: 120,
} as const satisfies FunctionDeclaration;

/** Queues functions send work to; the stack makes them (with a dead-letter queue), the embedded stack too. */
export const QUEUES = {
  /** Attempts of webhook deliveries (webhook-queue.ts), consumed by WEBHOOK_DELIVERER. */
  webhookDeliveries: { name: 'webhookDeliveries', urlVariable: 'WEBHOOK_QUEUE_URL' },
} as const;
export type QueueName = keyof typeof QUEUES;

/**
 * Records of the table's stream the webhook dispatcher takes: the change feed's items as the recorder
 * writes them (Lambda event filtering in the cloud, the same pattern on the embedded stream).
 */
export const CHANGE_ITEM_FILTER = {
  eventName: ['INSERT'],
  dynamodb: { Keys: { PK: { S: [{ prefix: CHANGES_PREFIX }] } } },
} as const;

/** The webhook functions write deliveries and queue attempts (the deliverer queues retries). */
const WEBHOOK_ACCESS = {
  table: 'readWrite',
  bucket: NO_BUCKET,
  signsTokens: false,
  verifiesTokens: false,
  sendsTo: ['webhookDeliveries'],
} as const satisfies FunctionDeclaration['access'];

/**
 * The second function on the table's stream: turns each recorded change into webhook deliveries and
 * queues their first attempts (shared/services/webhook-dispatch.ts).
 */
export const WEBHOOK_DISPATCHER = {
  name: 'dispatchWebhooks',
  handler: 'functions/webhooks/dispatch-webhooks.ts',
  access: WEBHOOK_ACCESS,
  memoryMb: 256,
  timeoutSeconds: 120,
} as const satisfies FunctionDeclaration;

/**
 * The consumer of the delivery queue: one attempt per message, a few at once
 * (shared/services/webhook-delivery.ts). Retries go back through the queue.
 */
export const WEBHOOK_DELIVERER = {
  name: 'deliverWebhooks',
  handler: 'functions/webhooks/deliver-webhooks.ts',
  access: WEBHOOK_ACCESS,
  memoryMb: 256,
  // A batch of 10 attempts of at most 10 s each, five at a time.
  timeoutSeconds: 60,
} as const satisfies FunctionDeclaration;
