/**
 * The bucket's side of an upload's assembly: its chunks (upload-chunk-store.ts stores them) read back and
 * streamed into one file, so memory stays bounded whatever the file's size, then removed.
 */
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { DeleteObjectsCommand, GetObjectCommand, NoSuchKey } from '@aws-sdk/client-s3';
import { s3 } from '#shared/clients/s3.ts';
import { config } from '#shared/config/index.ts';
import { tagFile } from './file-tags.ts';
import { unlessUnavailable } from './s3-faults.ts';
import { fileKey, UNATTACHED_TAG, uploadChunkKey } from './storage-layout.ts';

/** Parts of 8 MiB, two in flight: an assembly holds about 16 MiB of the file at a time. */
const PART_BYTES = 8 * 1024 * 1024;
const PARTS_IN_FLIGHT = 2;
/** DeleteObjects takes at most 1,000 keys. */
const DELETE_BATCH = 1000;

export class ChunkMissingError extends Error {}

/** The chunks' bytes in order, one chunk's stream at a time. */
async function* chunkBytes(principalId: string, uploadKey: string, totalChunks: number) {
  for (let chunkNumber = 1; chunkNumber <= totalChunks; chunkNumber++) {
    let body: Readable;
    try {
      const { Body } = await unlessUnavailable(
        s3().send(
          new GetObjectCommand({
            Bucket: config().bucketName,
            Key: uploadChunkKey(principalId, uploadKey, chunkNumber),
          }),
        ),
      );
      body = Body as Readable;
    } catch (error) {
      if (error instanceof NoSuchKey) throw new ChunkMissingError(`chunk ${chunkNumber} is not in the store`);
      throw error;
    }
    yield* body;
  }
}

/**
 * Streams the chunks into one object `files/<fileId>` (S3 multipart when larger than a part), tagged
 * unattached until a document takes it; answers its size and SHA-256, computed on the way.
 */
export async function assembleFile(
  principalId: string,
  uploadKey: string,
  totalChunks: number,
  fileId: string,
): Promise<{ size: number; sha256: string }> {
  const hash = createHash('sha256');
  let size = 0;
  const measured = async function* () {
    for await (const piece of chunkBytes(principalId, uploadKey, totalChunks)) {
      const bytes = piece as Buffer;
      hash.update(bytes);
      size += bytes.length;
      yield bytes;
    }
  };
  const Bucket = config().bucketName;
  const Key = fileKey(fileId);
  // lib-storage and the multipart calls' schemas (about 10 KB) load with the first assembly: the chunk
  // function assembles only with the last chunk of a small file, and every cold start would parse them.
  const { Upload: MultipartUpload } = await import('@aws-sdk/lib-storage');
  const upload = new MultipartUpload({
    client: s3(),
    params: { Bucket, Key, Body: Readable.from(measured()) },
    partSize: PART_BYTES,
    queueSize: PARTS_IN_FLIGHT,
    leavePartsOnError: false,
  });
  await unlessUnavailable(upload.done());
  // Tagged by its own call, the same for a single PUT and a multipart upload.
  await tagFile(fileId, UNATTACHED_TAG.Value);
  return { size, sha256: hash.digest('hex') };
}

/** Removes an upload's chunks once its file is assembled (best effort: the bucket expires leftovers). */
export async function deleteChunks(
  principalId: string,
  uploadKey: string,
  totalChunks: number,
): Promise<void> {
  const keys = Array.from({ length: totalChunks }, (_, i) => ({
    Key: uploadChunkKey(principalId, uploadKey, i + 1),
  }));
  for (let start = 0; start < keys.length; start += DELETE_BATCH) {
    await s3()
      .send(
        new DeleteObjectsCommand({
          Bucket: config().bucketName,
          Delete: { Objects: keys.slice(start, start + DELETE_BATCH), Quiet: true },
        }),
      )
      .catch(() => undefined);
  }
}
