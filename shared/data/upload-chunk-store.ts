/**
 * An upload's chunks as they arrive, each its own object under the uploader's prefix. A chunk's function
 * stores one per request, so this goes without the S3 client (s3-object-requests.ts); the assembly reads
 * them back (upload-objects.ts).
 */
import { putObject } from '#shared/clients/s3-object-requests.ts';
import { unlessUnavailable } from './s3-faults.ts';
import { uploadChunkKey } from './storage-layout.ts';

export async function putChunk(
  principalId: string,
  uploadKey: string,
  chunkNumber: number,
  bytes: Buffer,
): Promise<void> {
  await unlessUnavailable(putObject(uploadChunkKey(principalId, uploadKey, chunkNumber), bytes));
}
