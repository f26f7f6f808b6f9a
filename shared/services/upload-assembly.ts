/**
 * Assembling an upload's file once its last chunk is in. Small files are assembled by the request that
 * completed them (the uploader's next call finds the file ready); larger ones by the assembly function,
 * invoked asynchronously, so no request waits past API Gateway's 30 s. Whoever assembles holds a lease on
 * the upload: a crashed assembly's lease runs out and the next look at the upload starts another.
 */
import { assembleFile, ChunkMissingError, deleteChunks } from '#shared/data/upload-objects.ts';
import { endAssembly, takeForAssembly } from '#shared/data/upload-repository.ts';
import { ServiceUnavailableError } from '#shared/domain/errors.ts';
import { newVersionId } from '#shared/domain/node.ts';
import type { Upload } from '#shared/domain/uploads/upload.ts';
import { sourceMappedStack } from '#shared/logging/source-mapped-stack.ts';
import { type AssemblyJob, assembleInBackground } from './upload-dispatch.ts';

export type { AssemblyJob };

/** Files up to this size are assembled in the request that completes them (a few seconds at most). */
export const INLINE_ASSEMBLY_MAX_BYTES = 8 * 1024 * 1024;
/** How long an assembly owns its upload: past the request's 29 s, past the assembly function's 15 min. */
export const ASSEMBLY_LEASE_MS = { inline: 60_000, background: 16 * 60_000 } as const;

export type AssemblyMode = keyof typeof ASSEMBLY_LEASE_MS;

/** `retry`: a fault worth retrying; the lease is given back so another attempt can take the upload. */
export type AssemblyOutcome = 'complete' | 'failed' | 'taken' | 'retry';

export async function assembleUpload(
  { principalId, uploadKey }: AssemblyJob,
  mode: AssemblyMode,
): Promise<AssemblyOutcome> {
  const started = Date.now();
  const upload = await takeForAssembly(principalId, uploadKey, started, started + ASSEMBLY_LEASE_MS[mode]);
  if (!upload) return 'taken';
  // Time-ordered: an upload completed under the identifier a document holds replaces its file only if it
  // was made after that file (upload-attachments.ts).
  const fileId = newVersionId();
  try {
    const { size, sha256 } = await assembleFile(principalId, uploadKey, upload.totalChunks, fileId);
    const mismatch = sizeMismatch(upload, size);
    if (mismatch) {
      await endAssembly(principalId, uploadKey, Date.now(), { failure: mismatch });
      return 'failed';
    }
    const file = { fileId, size, sha256, contentType: upload.declaredType };
    await endAssembly(principalId, uploadKey, Date.now(), { file });
    await deleteChunks(principalId, uploadKey, upload.totalChunks);
    return 'complete';
  } catch (error) {
    if (error instanceof ServiceUnavailableError) {
      await endAssembly(principalId, uploadKey, Date.now(), { retry: true }).catch(() => false);
      return 'retry';
    }
    // A missing chunk, or a fault no retry mends: the upload fails, saying why (details in the log only).
    const reason =
      error instanceof ChunkMissingError
        ? error.message
        : 'the file could not be assembled; upload it again under a new identifier';
    if (!(error instanceof ChunkMissingError)) {
      console.error(
        JSON.stringify({
          level: 'error',
          message: 'upload assembly failed',
          uploadKey,
          error: String(error),
          stack: sourceMappedStack((error as Error).stack),
        }),
      );
    }
    await endAssembly(principalId, uploadKey, Date.now(), { failure: reason });
    return 'failed';
  }
}

/** A multi-chunk upload's file must be the size its chunks announced (a single chunk is what it is). */
function sizeMismatch(upload: Upload, size: number): string | undefined {
  if (upload.totalChunks === 1 || size === upload.totalSize) return undefined;
  return `the chunks hold ${size} bytes, not the ${upload.totalSize} announced (resumableTotalSize)`;
}

/** Assembles now when the file is small, else in the background; a retryable fault now moves it there. */
export async function assembleCompletedUpload(job: AssemblyJob, fileBytes: number): Promise<void> {
  if (fileBytes > INLINE_ASSEMBLY_MAX_BYTES) return assembleInBackground(job);
  const outcome = await assembleUpload(job, 'inline');
  if (outcome === 'retry') await assembleInBackground(job);
}
