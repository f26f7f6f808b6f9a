/** The bucket's expiry rules, applied to a real s3rver as S3's lifecycle applies them. */
import { mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  HeadObjectCommand,
  ListObjectsCommand,
  PutObjectCommand,
  PutObjectTaggingCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ensureBucket } from '#infra/local/ensure-resources.ts';
import { type LocalS3, startLocalS3 } from '#infra/local/local-s3.ts';
import { expiresAt, type LocalS3Lifecycle, startLocalS3Lifecycle } from '#infra/local/local-s3-lifecycle.ts';
import {
  OBJECT_EXPIRY_RULES,
  STORAGE_EXPIRY_DAYS,
  UNATTACHED_TAG,
  uploadChunkKey,
} from '#shared/data/storage-layout.ts';
import { localS3Client } from './local-s3-client.ts';

const DAY_MS = 24 * 3600 * 1000;

let dataDir: string;
let s3: LocalS3;
let client: S3Client;
let bucketCount = 0;
const sweepers: LocalS3Lifecycle[] = [];

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'local-s3-lifecycle-'));
  s3 = await startLocalS3({ dataDir });
  client = localS3Client(s3.endpoint);
});
afterEach(async () => {
  await Promise.all(sweepers.splice(0).map((sweeper) => sweeper.close()));
  vi.restoreAllMocks();
});
afterAll(async () => {
  client.destroy();
  await s3.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A bucket of its own for each test. */
async function freshBucket(): Promise<string> {
  bucketCount += 1;
  const bucket = `lifecycle-${bucketCount}`;
  await ensureBucket(s3.endpoint, bucket);
  return bucket;
}

function lifecycle(
  bucket: string,
  options: { now?: () => number; pageSize?: number; sweepSeconds?: number },
) {
  const sweeper = startLocalS3Lifecycle({
    endpoint: s3.endpoint,
    bucket,
    rules: OBJECT_EXPIRY_RULES,
    sweepSeconds: 0,
    ...options,
  });
  sweepers.push(sweeper);
  return sweeper;
}

/**
 * Puts an object last modified `ageDays` ago. s3rver answers the mtime of its file as LastModified, so the
 * file's times are set back: there is no other way to have an object of another day.
 */
async function put(bucket: string, key: string, ageDays = 0, tag?: { Key: string; Value: string }) {
  await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: key }));
  // s3rver keeps no tags given with PutObject; PutObjectTagging it does keep.
  if (tag)
    await client.send(new PutObjectTaggingCommand({ Bucket: bucket, Key: key, Tagging: { TagSet: [tag] } }));
  if (ageDays > 0) {
    const parts = key.split('/');
    const file = `${parts.pop()}._S3rver_object`;
    const then = new Date(Date.now() - ageDays * DAY_MS);
    const path = join(dataDir, 's3', bucket, ...parts, file);
    // The embedded S3 answers a put once its file is written and closed (s3rver-store.ts), so ageing
    // the file now is not undone by a write still under way.
    utimesSync(path, then, then);
  }
}

async function keysIn(bucket: string): Promise<string[]> {
  const { Contents = [] } = await client.send(new ListObjectsCommand({ Bucket: bucket }));
  return Contents.map((object) => object.Key as string).sort();
}

describe('expiry by age and prefix', () => {
  it('deletes objects under an expiring prefix older than the rule, and keeps younger ones and others', async () => {
    const bucket = await freshBucket();
    const old = STORAGE_EXPIRY_DAYS.chunks + 1;
    await put(bucket, 'chunks/u1/k1/1', old);
    await put(bucket, 'chunks/u1/k1/2', old);
    await put(bucket, 'chunks/u1/k2/1', STORAGE_EXPIRY_DAYS.chunks - 1);
    await put(bucket, 'chunks/u2/k3/1');
    await put(bucket, 'bpmn/P1/T1.bpmn', 365);
    await put(bucket, 'elsewhere', 365);

    expect(await lifecycle(bucket, {}).sweep()).toBe(2);
    expect(await keysIn(bucket)).toEqual([
      'bpmn/P1/T1.bpmn',
      'chunks/u1/k2/1',
      'chunks/u2/k3/1',
      'elsewhere',
    ]);
  });

  it('expires an object at the first midnight UTC after it is `days` old, as S3 does', async () => {
    const bucket = await freshBucket();
    await put(bucket, 'chunks/u1/k1/1');
    const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: 'chunks/u1/k1/1' }));
    const expiry = expiresAt(head.LastModified as Date, STORAGE_EXPIRY_DAYS.chunks);
    expect(expiry % DAY_MS).toBe(0);
    expect(expiry - (head.LastModified as Date).getTime()).toBeGreaterThanOrEqual(
      STORAGE_EXPIRY_DAYS.chunks * DAY_MS,
    );

    let now = expiry - 1;
    const sweeper = lifecycle(bucket, { now: () => now });
    expect(await sweeper.sweep()).toBe(0);
    expect(await keysIn(bucket)).toEqual(['chunks/u1/k1/1']);
    now = expiry;
    expect(await sweeper.sweep()).toBe(1);
    expect(await keysIn(bucket)).toEqual([]);
  });
});

describe('a rule with a tag', () => {
  it('deletes only the old objects under its prefix that carry the tag', async () => {
    const bucket = await freshBucket();
    const old = STORAGE_EXPIRY_DAYS.unattachedFiles + 1;
    await put(bucket, 'files/F1', old, UNATTACHED_TAG);
    await put(bucket, 'files/F2', old);
    await put(bucket, 'files/F3', old, { Key: UNATTACHED_TAG.Key, Value: 'attached' });
    await put(bucket, 'files/F4', 1, UNATTACHED_TAG);

    expect(await lifecycle(bucket, {}).sweep()).toBe(1);
    expect(await keysIn(bucket)).toEqual(['files/F2', 'files/F3', 'files/F4']);
  });
});

describe('paging and the timer', () => {
  it('goes through more objects than one list page holds', async () => {
    const bucket = await freshBucket();
    const old = STORAGE_EXPIRY_DAYS.chunks + 1;
    const young: string[] = [];
    for (let n = 1; n <= 30; n += 1) {
      // Keys as the store makes them (zero-padded): s3rver pages wrongly over keys that prefix one another.
      const key = uploadChunkKey('u1', 'k1', n);
      if (n % 3 === 0) young.push(key);
      await put(bucket, key, n % 3 === 0 ? 0 : old);
    }
    expect(await lifecycle(bucket, { pageSize: 4 }).sweep()).toBe(20);
    expect(await keysIn(bucket)).toEqual(young.sort());
  });

  it('sweeps on its own every sweepSeconds', async () => {
    const bucket = await freshBucket();
    await put(bucket, 'chunks/u1/k1/1', STORAGE_EXPIRY_DAYS.chunks + 1);
    lifecycle(bucket, { sweepSeconds: 0.1 });
    await vi.waitFor(async () => expect(await keysIn(bucket)).toEqual([]), { timeout: 5000, interval: 50 });
  });

  it('logs a failed timer sweep as one JSON line, and keeps going', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    lifecycle('no-such-bucket', { sweepSeconds: 0.1 });
    await vi.waitFor(() => expect(errors.mock.calls.length).toBeGreaterThanOrEqual(2), {
      timeout: 5000,
      interval: 100,
    });
    expect(JSON.parse(String(errors.mock.calls[0]?.[0]))).toMatchObject({
      level: 'error',
      msg: 'S3 lifecycle sweep failed',
      error: expect.stringContaining('NoSuchBucket'),
    });
  });

  it('close() waits for a running sweep, and no sweep starts after it', async () => {
    const bucket = await freshBucket();
    await put(bucket, 'chunks/u1/k1/1', STORAGE_EXPIRY_DAYS.chunks + 1);
    const sweeper = lifecycle(bucket, {});
    let swept: number | undefined;
    const running = sweeper.sweep().then((count) => {
      swept = count;
    });
    await sweeper.close();
    expect(swept).toBe(1);
    await running;
    await expect(sweeper.sweep()).rejects.toThrow('closed');
  });
});
