/**
 * S3 lifecycle expiration for s3rver, which has none: the bucket's object expiry rules (the same data the
 * stack gives S3, shared/data/storage-layout.ts) applied by a sweeper. As S3's, the sweep is late by
 * design: code must not rely on an expired object being gone, nor on one being still there.
 */
import {
  type _Object,
  DeleteObjectCommand,
  GetObjectTaggingCommand,
  ListObjectsCommand,
  NoSuchKey,
  S3Client,
} from '@aws-sdk/client-s3';
import { EMBEDDED_CREDENTIALS } from '#shared/clients/aws-client-settings.ts';
import type { ObjectExpiryRule } from '#shared/data/storage-layout.ts';

const DAY_MS = 24 * 3600 * 1000;

export interface LocalS3Lifecycle {
  /** One pass: deletes every object a rule expires at `now`; answers how many it deleted. */
  sweep(): Promise<number>;
  /** Stops the periodic sweep and waits for a running one. */
  close(): Promise<void>;
}

/**
 * When S3 expires an object: `days` after its creation, rounded up to the next midnight UTC (S3's
 * lifecycle documentation: "adding the number of days specified in the rule to the object creation time
 * and rounding the resulting time to the next day midnight UTC"), so between `days` and `days + 1` old.
 */
export function expiresAt(lastModified: Date, days: number): number {
  return Math.ceil((lastModified.getTime() + days * DAY_MS) / DAY_MS) * DAY_MS;
}

export function startLocalS3Lifecycle(options: {
  endpoint: string;
  bucket: string;
  rules: readonly ObjectExpiryRule[];
  /** Seconds between sweeps (0: no timer, sweep() only). */
  sweepSeconds: number;
  now?: () => number;
  /** Objects asked for per list request (S3 and s3rver answer at most 1000); small in tests, to page. */
  pageSize?: number;
}): LocalS3Lifecycle {
  const { bucket, rules } = options;
  const now = options.now ?? Date.now;
  const pageSize = options.pageSize ?? 1000;
  const client = new S3Client({
    endpoint: options.endpoint,
    region: 'us-east-1',
    credentials: EMBEDDED_CREDENTIALS,
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });

  /**
   * The objects under `prefix`, page by page. ListObjects (v1) with Marker, not ListObjectsV2: s3rver
   * 3.7.1 makes its V2 continuation tokens with DES, which Node's OpenSSL 3 refuses without
   * `--openssl-legacy-provider`, so a truncated V2 listing answers 500. s3rver's v1 answers no NextMarker
   * without a delimiter; as S3 documents, the last key of the page is the marker then.
   *
   * s3rver lists in the order of its directory walk, which is key order for this bucket's keys (ids of one
   * length, chunk numbers), but not where a key is a sibling's prefix followed by a character below '.'
   * ('x/1' and 'x/1-a'): such a key may come after the marker and be left out of a paged listing.
   */
  async function* objectsUnder(prefix: string): AsyncGenerator<_Object> {
    let marker: string | undefined;
    for (;;) {
      const page = await client.send(
        new ListObjectsCommand({ Bucket: bucket, Prefix: prefix, Marker: marker, MaxKeys: pageSize }),
      );
      const contents = page.Contents ?? [];
      yield* contents;
      marker = contents.at(-1)?.Key;
      if (!page.IsTruncated || marker === undefined) return;
    }
  }

  async function carriesTag(key: string, tag: NonNullable<ObjectExpiryRule['tag']>): Promise<boolean> {
    try {
      const { TagSet = [] } = await client.send(new GetObjectTaggingCommand({ Bucket: bucket, Key: key }));
      return TagSet.some((t) => t.Key === tag.Key && t.Value === tag.Value);
    } catch (error) {
      if (error instanceof NoSuchKey) return false;
      throw error;
    }
  }

  async function sweepOnce(): Promise<number> {
    const at = now();
    let deleted = 0;
    for (const rule of rules) {
      for await (const object of objectsUnder(rule.prefix)) {
        const key = object.Key;
        if (key === undefined || !object.LastModified) continue;
        if (expiresAt(object.LastModified, rule.days) > at) continue;
        if (rule.tag && !(await carriesTag(key, rule.tag))) continue;
        // One object at a time, right after its own check: an object attached (its tag removed) while the
        // sweep runs has the least time to be deleted all the same.
        await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
        deleted += 1;
      }
    }
    return deleted;
  }

  // Passes run one after another; the timer skips its turn while one runs.
  let queue: Promise<unknown> = Promise.resolve();
  let running = 0;
  let closed = false;
  const pass = (): Promise<number> => {
    running += 1;
    const run = queue.then(sweepOnce).finally(() => {
      running -= 1;
    });
    queue = run.catch(() => undefined);
    return run;
  };

  const timer =
    options.sweepSeconds > 0
      ? setInterval(() => {
          if (running > 0) return;
          pass().catch((error: unknown) =>
            console.error(
              JSON.stringify({ level: 'error', msg: 'S3 lifecycle sweep failed', error: String(error) }),
            ),
          );
        }, options.sweepSeconds * 1000)
      : undefined;
  timer?.unref();

  return {
    sweep() {
      if (closed) return Promise.reject(new Error('The S3 lifecycle sweeper is closed'));
      return pass();
    },
    async close() {
      closed = true;
      clearInterval(timer);
      await queue;
      client.destroy();
    },
  };
}
