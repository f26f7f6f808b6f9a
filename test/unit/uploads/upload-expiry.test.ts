/**
 * An upload's life against its chunks' in S3: S3 expires each chunk by its own age, however recently the
 * upload's last chunk came, so an upload must end (and its last assembly be done) before its first chunk
 * can go.
 */
import { describe, expect, it } from 'vitest';
import { expiresAt } from '#infra/local/local-s3-lifecycle.ts';
import { STORAGE_EXPIRY_DAYS } from '#shared/data/storage-layout.ts';
import {
  isExpired,
  receivingExpiresAtEpoch,
  UPLOAD_RETENTION,
  type Upload,
} from '#shared/domain/uploads/upload.ts';
import { ASSEMBLY_LEASE_MS } from '#shared/services/upload-assembly.ts';

const HOUR_MS = 3600 * 1000;
const DAY_MS = 24 * HOUR_MS;
const START = Date.parse('2030-03-04T05:06:07.089Z');
const epoch = (ms: number) => Math.floor(ms / 1000);

const receiving = (expiresAtMs: number, state: Upload['state'] = 'receiving'): Upload => ({
  identifier: 'i',
  fileName: 'f',
  declaredType: null,
  totalSize: 2,
  chunkSize: 1,
  totalChunks: 2,
  chunks: new Set([1]),
  state,
  createdAt: new Date(START).toISOString(),
  updatedAt: new Date(START).toISOString(),
  expiresAtEpoch: epoch(expiresAtMs),
});

describe('upload expiry', () => {
  it('moves a day past each chunk, never past 2 days after the first', () => {
    const createdAt = new Date(START).toISOString();
    expect(receivingExpiresAtEpoch(createdAt, START)).toBe(epoch(START + DAY_MS));
    expect(receivingExpiresAtEpoch(createdAt, START + 20 * HOUR_MS)).toBe(epoch(START + 44 * HOUR_MS));
    // Resumed daily: its last chunk is recent, but it ends 2 days after it started.
    expect(receivingExpiresAtEpoch(createdAt, START + 40 * HOUR_MS)).toBe(epoch(START + 2 * DAY_MS));
    expect(receivingExpiresAtEpoch(createdAt, START + 47 * HOUR_MS)).toBe(epoch(START + 2 * DAY_MS));
  });

  it('holds a receiving upload expired past its maximum, even where its record says later', () => {
    // A record written before the maximum was kept: a day after a chunk 40 h after its start.
    const early = receiving(START + 64 * HOUR_MS);
    expect(isExpired(early, START + 47 * HOUR_MS)).toBe(false);
    expect(isExpired(early, START + 2 * DAY_MS - 1)).toBe(false);
    expect(isExpired(early, START + 2 * DAY_MS)).toBe(true);
    // A complete upload lives by its record: a week after its assembly.
    expect(isExpired(receiving(START + 9 * DAY_MS, 'complete'), START + 3 * DAY_MS)).toBe(false);
    expect(isExpired(receiving(START + HOUR_MS), START + HOUR_MS)).toBe(true);
  });

  it("ends, with its last assembly's lease, before S3 may expire the upload's first chunk", () => {
    // A chunk is stored after its upload started; S3 expires it no earlier than `days` after (rounding
    // up to midnight UTC): a chunk stored just after the start, at midnight, is the first that can go.
    const firstChunk = Date.parse('2030-03-04T00:00:00.000Z');
    const firstGone = expiresAt(new Date(firstChunk), STORAGE_EXPIRY_DAYS.chunks);
    expect(firstGone).toBe(firstChunk + STORAGE_EXPIRY_DAYS.chunks * DAY_MS);
    const lastAssemblyEnds =
      firstChunk + UPLOAD_RETENTION.receivingMaxSeconds * 1000 + ASSEMBLY_LEASE_MS.background;
    expect(lastAssemblyEnds).toBeLessThan(firstGone - 12 * HOUR_MS);
    // And a complete upload's file, tagged unattached until a document takes it, outlives the upload.
    expect(UPLOAD_RETENTION.completeSeconds * 1000).toBeLessThan(
      STORAGE_EXPIRY_DAYS.unattachedFiles * DAY_MS,
    );
  });
});
