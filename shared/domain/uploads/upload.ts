/**
 * An upload: the chunks of one file a user sends under one identifier (resumable.js), then the file
 * assembled from them, then the document it is attached to. Identifiers belong to the uploader: the same
 * identifier sent by two users names two uploads.
 */
import { createHash } from 'node:crypto';
import * as z from 'zod/mini';

export const UPLOAD_STATES = ['receiving', 'assembling', 'complete', 'failed', 'attached'] as const;
export type UploadState = (typeof UPLOAD_STATES)[number];

/** How long what nobody finishes is kept (the TTL of the upload's record; S3 expires the objects after). */
export const UPLOAD_RETENTION = {
  /** An upload whose chunks stop arriving: a day after the last one. */
  receivingSeconds: 24 * 3600,
  /**
   * However often its chunks come, an upload takes them for at most this long from its start (its first
   * chunk): S3 expires each chunk by its own age (STORAGE_EXPIRY_DAYS.chunks, a day longer), so an upload
   * must end, and its last assembly have read its chunks, before the first of them can go.
   */
  receivingMaxSeconds: 2 * 24 * 3600,
  /** An assembled file nobody attaches: a week. */
  completeSeconds: 7 * 24 * 3600,
  /** What an attached upload is remembered for (a second attach is refused by name, not as unknown). */
  attachedSeconds: 7 * 24 * 3600,
  /** A failed assembly, so its uploader can read why. */
  failedSeconds: 24 * 3600,
} as const;

/** The assembled file. */
export const storedFileSchema = z.object({
  fileId: z.string(),
  size: z.number(),
  sha256: z.string(),
  /** As the uploader declared it (resumableType); never trusted for serving. */
  contentType: z.nullable(z.string()),
});
export type StoredFile = z.output<typeof storedFileSchema>;

export const uploadSchema = z.object({
  identifier: z.string(),
  /** resumableFilename as sent: fileInfo.name must repeat it. */
  fileName: z.string(),
  declaredType: z.nullable(z.string()),
  /** resumableTotalSize as sent (the spec's single-chunk form sends 1 whatever the size). */
  totalSize: z.number(),
  chunkSize: z.number(),
  totalChunks: z.number(),
  /** Chunk numbers stored so far (a DynamoDB number set: adding one is idempotent). */
  chunks: z._default(z.set(z.number()), () => new Set<number>()),
  state: z.enum(UPLOAD_STATES),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Epoch seconds: the table's TTL attribute (code checks it too: TTL deletes late). */
  expiresAtEpoch: z.number(),
  /** Epoch ms until which a running assembly owns the upload. */
  assemblyLeaseUntil: z.optional(z.number()),
  file: z.optional(storedFileSchema),
  attachedTo: z.optional(z.string()),
  failure: z.optional(z.string()),
});
export type Upload = z.output<typeof uploadSchema>;

/**
 * Whether an upload is finished with: attached to its document, or failed (its file could not be made).
 * Its identifier then names the next upload, which starts with its first chunk: resumable.js names an
 * upload by the file's size and name, so the same file sent again after a failure reuses it.
 */
export const isFinished = (upload: Pick<Upload, 'state'>): boolean =>
  upload.state === 'attached' || upload.state === 'failed';

/** The key an upload is stored under: a digest of the identifier, whatever characters it holds. */
export const uploadKeyOf = (identifier: string): string =>
  createHash('sha256').update(identifier, 'utf8').digest('base64url').slice(0, 32);

/**
 * When a receiving upload started at `createdAt` expires, given a chunk at `nowMs`: a day after that
 * chunk, but never past its start's maximum (UPLOAD_RETENTION.receivingMaxSeconds).
 */
export function receivingExpiresAtEpoch(createdAt: string, nowMs: number): number {
  return Math.min(
    Math.floor(nowMs / 1000) + UPLOAD_RETENTION.receivingSeconds,
    receivingDeadlineEpoch(createdAt),
  );
}

const receivingDeadlineEpoch = (createdAt: string): number =>
  Math.floor(Date.parse(createdAt) / 1000) + UPLOAD_RETENTION.receivingMaxSeconds;

/**
 * Whether an upload is gone: its record's expiry (the table's TTL, which deletes late) has passed, or it
 * is still receiving past its start's maximum (a record written before the maximum was kept can say later).
 */
export const isExpired = (upload: Upload, nowMs: number): boolean =>
  upload.expiresAtEpoch * 1000 <= nowMs ||
  (upload.state === 'receiving' && upload.createdAt <= oldestReceivingStart(nowMs));

/**
 * A receiving upload that started (createdAt) at this instant or earlier is past its maximum at `nowMs`.
 * ISO timestamps of one format compare as strings as they do as instants: DynamoDB conditions use it too.
 */
export const oldestReceivingStart = (nowMs: number): string =>
  new Date(nowMs - UPLOAD_RETENTION.receivingMaxSeconds * 1000).toISOString();
