/** What an uploader may ask of their uploads: whether a chunk is stored (resume), and an upload's state. */
import { findUpload } from '#shared/data/upload-repository.ts';
import type { ResumableQuery } from '#shared/domain/uploads/chunk-rules.ts';
import { planChunk } from '#shared/domain/uploads/chunk-rules.ts';
import { sameFileOrRefuse } from '#shared/domain/uploads/same-file.ts';
import { isFinished, type Upload, uploadKeyOf } from '#shared/domain/uploads/upload.ts';
import { unknownUpload } from '#shared/domain/uploads/upload-errors.ts';
import type { Caller } from '#shared/domain/user.ts';
import { assembleInBackground } from './upload-dispatch.ts';

/**
 * The live upload a principal named `identifier`, or null: the first read of every upload request, which
 * its handler starts beside the session check (handle's `prefetch`) and passes on as `stored`.
 */
export function readOwnUpload(principalId: string, identifier: string): Promise<Upload | null> {
  return findUpload(principalId, uploadKeyOf(identifier), Date.now());
}

/** resumable.js's test: is this chunk stored already? (An unknown upload has none.) */
export async function hasChunk(query: ResumableQuery, stored: Promise<Upload | null>): Promise<boolean> {
  const plan = planChunk(query);
  const upload = await stored;
  // A finished upload's identifier names the next upload, which has no chunk yet.
  if (!upload || isFinished(upload)) return false;
  sameFileOrRefuse(upload, query, plan);
  return upload.chunks.has(plan.chunkNumber);
}

/** The upload as its uploader sees it (GET /api/v1/uploads/{identifier}). */
export async function uploadStatus(caller: Caller, identifier: string, stored: Promise<Upload | null>) {
  const { principalId } = caller.principal;
  const uploadKey = uploadKeyOf(identifier);
  const upload = await stored;
  if (!upload) throw unknownUpload(identifier, 'path');
  // An assembly whose lease ran out crashed or gave up on a fault: start another.
  if (upload.state === 'assembling' && (upload.assemblyLeaseUntil ?? 0) < Date.now()) {
    await assembleInBackground({ principalId, uploadKey });
  }
  return uploadView(upload);
}

export function uploadView(upload: Upload) {
  return {
    identifier: upload.identifier,
    fileName: upload.fileName,
    state: upload.state,
    totalChunks: upload.totalChunks,
    chunksReceived: upload.chunks.size,
    size: upload.file?.size ?? null,
    sha256: upload.file?.sha256 ?? null,
    contentType: upload.declaredType,
    attachedTo: upload.attachedTo ?? null,
    failure: upload.failure ?? null,
    createdAt: upload.createdAt,
    expiresAt: new Date(upload.expiresAtEpoch * 1000).toISOString(),
  };
}
