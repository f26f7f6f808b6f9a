/** The embedded S3 answers multipart uploads and writes as S3 does (s3rver-store.ts), through the SDK. */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  type S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBucket } from '#infra/local/ensure-resources.ts';
import { type LocalS3, startLocalS3 } from '#infra/local/local-s3.ts';
import { MIN_PART_BYTES } from '#infra/local/s3rver-store.ts';
import { localS3Client } from './local-s3-client.ts';

const Bucket = 'faithful-store';
let dataDir: string;
let s3: LocalS3;
let client: S3Client;
let keys = 0;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 's3rver-store-'));
  s3 = await startLocalS3({ dataDir });
  await ensureBucket(s3.endpoint, Bucket);
  client = localS3Client(s3.endpoint);
});
afterAll(async () => {
  client?.destroy();
  await s3?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const md5 = (bytes: Buffer) => createHash('md5').update(bytes).digest();
const bytesOf = (size: number, fill: number) => Buffer.alloc(size, fill);

/** Starts a multipart upload and sends `parts` (numbered from 1); answers its key, id and part ETags. */
async function uploadParts(parts: Buffer[]) {
  const Key = `multipart/${++keys}`;
  const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket, Key }));
  const etags: string[] = [];
  for (const [i, Body] of parts.entries()) {
    const { ETag } = await client.send(
      new UploadPartCommand({ Bucket, Key, UploadId, PartNumber: i + 1, Body, ContentLength: Body.length }),
    );
    etags.push(ETag as string);
  }
  return { Key, UploadId, etags };
}

const complete = (Key: string, UploadId: string | undefined, parts: { PartNumber: number; ETag: string }[]) =>
  client.send(
    new CompleteMultipartUploadCommand({ Bucket, Key, UploadId, MultipartUpload: { Parts: parts } }),
  );

const listed = (etags: string[]) => etags.map((ETag, i) => ({ PartNumber: i + 1, ETag }));

describe('CompleteMultipartUpload', () => {
  it('joins the parts into one object whose ETag is S3’s multipart form', async () => {
    const parts = [bytesOf(MIN_PART_BYTES, 1), bytesOf(1000, 2)];
    const { Key, UploadId, etags } = await uploadParts(parts);
    const answer = await complete(Key, UploadId, listed(etags));
    const expected = `"${createHash('md5')
      .update(Buffer.concat(parts.map(md5)))
      .digest('hex')}-2"`;
    expect(answer.ETag).toBe(expected);
    const object = await client.send(new GetObjectCommand({ Bucket, Key }));
    expect(object.ETag).toBe(expected);
    const body = Buffer.from(
      await (object.Body as { transformToByteArray(): Promise<Uint8Array> }).transformToByteArray(),
    );
    expect(body.equals(Buffer.concat(parts))).toBe(true);
  });

  it('refuses a part before the last one smaller than 5 MiB (EntityTooSmall), as S3 does', async () => {
    const { Key, UploadId, etags } = await uploadParts([bytesOf(MIN_PART_BYTES - 1, 1), bytesOf(10, 2)]);
    await expect(complete(Key, UploadId, listed(etags))).rejects.toMatchObject({
      name: 'EntityTooSmall',
      $metadata: { httpStatusCode: 400 },
    });
    await expect(client.send(new HeadObjectCommand({ Bucket, Key }))).rejects.toMatchObject({
      $metadata: { httpStatusCode: 404 },
    });
  });

  it('refuses a part named with another ETag (InvalidPart) or out of order (InvalidPartOrder)', async () => {
    const { Key, UploadId, etags } = await uploadParts([bytesOf(MIN_PART_BYTES, 1), bytesOf(10, 2)]);
    await expect(
      complete(Key, UploadId, [
        { PartNumber: 1, ETag: etags[0] as string },
        { PartNumber: 2, ETag: etags[0] as string },
      ]),
    ).rejects.toMatchObject({ name: 'InvalidPart' });
    await expect(complete(Key, UploadId, listed(etags).reverse())).rejects.toMatchObject({
      name: 'InvalidPartOrder',
    });
    // Still open: the right list completes it.
    await expect(complete(Key, UploadId, listed(etags))).resolves.toMatchObject({ Key });
  });

  it('answers NoSuchUpload (404) for an upload that is not open', async () => {
    const { Key, UploadId, etags } = await uploadParts([bytesOf(10, 1)]);
    await complete(Key, UploadId, listed(etags));
    await expect(complete(Key, UploadId, listed(etags))).rejects.toMatchObject({
      name: 'NoSuchUpload',
      $metadata: { httpStatusCode: 404 },
    });
  });
});

describe('PutObject', () => {
  it('answers once the object is stored whole: read right after, in parallel, each is complete', async () => {
    const size = 8 * 1024 * 1024;
    await Promise.all(
      Array.from({ length: 6 }, async (_, i) => {
        const Key = `whole/${++keys}`;
        const Body = bytesOf(size, i);
        await client.send(new PutObjectCommand({ Bucket, Key, Body, ContentLength: size }));
        const head = await client.send(new HeadObjectCommand({ Bucket, Key }));
        expect(head.ContentLength).toBe(size);
        expect(head.ETag).toBe(`"${md5(Body).toString('hex')}"`);
      }),
    );
  });

  it('answers a range as the bytes it names, the first byte alone included', async () => {
    const Key = `ranges/${++keys}`;
    const Body = Buffer.from('hello, ranges');
    await client.send(new PutObjectCommand({ Bucket, Key, Body, ContentLength: Body.length }));
    for (const [start, end] of [
      [0, 0],
      [1, 1],
      [0, 4],
      [7, 12],
    ] as const) {
      const answer = await client.send(new GetObjectCommand({ Bucket, Key, Range: `bytes=${start}-${end}` }));
      expect(answer.ContentRange).toBe(`bytes ${start}-${end}/${Body.length}`);
      expect(answer.ContentLength).toBe(end - start + 1);
      expect(
        Buffer.from(
          await (answer.Body as { transformToByteArray(): Promise<Uint8Array> }).transformToByteArray(),
        ),
      ).toEqual(Body.subarray(start, end + 1));
    }
  });
});
