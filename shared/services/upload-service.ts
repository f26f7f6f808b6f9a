/**
 * The upload area (spec §4.2, resumable.js): chunks received out of order and in parallel, a chunk sent
 * twice stored once, a test for a chunk already stored (resume), and the upload's state for its uploader.
 */

import { putChunk } from '#shared/data/upload-objects.ts';
import { countOpenUploads, findUpload, recordChunk, startUpload } from '#shared/data/upload-repository.ts';
import { BadRequestError, type FieldError, ServiceUnavailableError } from '#shared/domain/errors.ts';
import { timestamp } from '#shared/domain/node.ts';
import {
  type ChunkPlan,
  checkChunkBody,
  planChunk,
  type ResumableQuery,
  UPLOAD_LIMITS,
} from '#shared/domain/uploads/chunk-rules.ts';
import { UPLOAD_RETENTION, type Upload, uploadKeyOf } from '#shared/domain/uploads/upload.ts';
import { unknownUpload } from '#shared/domain/uploads/upload-errors.ts';
import type { Caller } from '#shared/domain/user.ts';
import { assembleCompletedUpload, assembleInBackground } from './upload-assembly.ts';

/** Receives one chunk. Resolves when it is stored (and, if it was the last, the file assembled or handed on). */
export async function receiveChunk(caller: Caller, query: ResumableQuery, body: Buffer): Promise<void> {
  const plan = planChunk(query);
  checkChunkBody(plan, query, body.length);
  const { principalId } = caller.principal;
  const uploadKey = uploadKeyOf(query.resumableIdentifier);
  const upload = await openUpload(principalId, uploadKey, query, plan);
  if (upload.chunks.has(plan.chunkNumber)) return; // sent twice: stored once
  if (upload.state !== 'receiving') throw uploadClosed(upload);

  await putChunk(principalId, uploadKey, plan.chunkNumber, body);
  const before = await recordChunk(principalId, uploadKey, plan.chunkNumber, Date.now());
  if (!before) {
    // The upload moved on (or expired) while the chunk was stored: fine if the chunk was in already.
    const now = await findUpload(principalId, uploadKey, Date.now());
    if (now?.chunks.has(plan.chunkNumber)) return;
    throw now ? uploadClosed(now) : unknownUpload(query.resumableIdentifier);
  }
  const completedIt = !before.chunks.has(plan.chunkNumber) && before.chunks.size + 1 === before.totalChunks;
  if (completedIt) {
    await assembleCompletedUpload({ principalId, uploadKey }, plan.fileBytes ?? body.length);
  }
}

/** resumable.js's test: is this chunk stored already? (An unknown upload has none.) */
export async function hasChunk(caller: Caller, query: ResumableQuery): Promise<boolean> {
  const plan = planChunk(query);
  const upload = await findUpload(
    caller.principal.principalId,
    uploadKeyOf(query.resumableIdentifier),
    Date.now(),
  );
  // An attached upload's identifier names the next upload, which has no chunk yet.
  if (!upload || upload.state === 'attached') return false;
  mismatches(upload, query, plan);
  return upload.chunks.has(plan.chunkNumber);
}

/** The upload as its uploader sees it (GET /api/v1/uploads/{identifier}). */
export async function uploadStatus(caller: Caller, identifier: string) {
  const { principalId } = caller.principal;
  const uploadKey = uploadKeyOf(identifier);
  const upload = await findUpload(principalId, uploadKey, Date.now());
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

/** The upload this chunk belongs to: found and consistent with the chunk, or started by it. */
async function openUpload(
  principalId: string,
  uploadKey: string,
  query: ResumableQuery,
  plan: ChunkPlan,
): Promise<Upload> {
  const nowMs = Date.now();
  const existing = await findUpload(principalId, uploadKey, nowMs);
  // An attached upload is finished with: its identifier starts a new upload (see startUpload).
  if (existing && existing.state !== 'attached') {
    mismatches(existing, query, plan);
    return existing;
  }
  if ((await countOpenUploads(principalId, nowMs)) >= UPLOAD_LIMITS.maxOpenUploadsPerUser) {
    // A 400, not a 409 or 429: resumable.js retries those up to 100 times; this needs the user to act.
    throw new BadRequestError(
      'TOO_MANY_OPEN_UPLOADS',
      `You have ${UPLOAD_LIMITS.maxOpenUploadsPerUser} uploads that are not attached to a document; attach ` +
        'them, or wait for them to expire (a day after their last chunk, a week after they completed)',
      [
        {
          in: 'query',
          path: '$.resumableIdentifier',
          rule: 'open_uploads_limit',
          message: `starts a new upload beyond your ${UPLOAD_LIMITS.maxOpenUploadsPerUser} open ones`,
        },
      ],
    );
  }
  const at = timestamp();
  const upload: Upload = {
    identifier: query.resumableIdentifier,
    fileName: query.resumableFilename,
    declaredType: query.resumableType || null,
    totalSize: query.resumableTotalSize,
    chunkSize: query.resumableChunkSize,
    totalChunks: plan.totalChunks,
    chunks: new Set(),
    state: 'receiving',
    createdAt: at,
    updatedAt: at,
    expiresAtEpoch: Math.floor(nowMs / 1000) + UPLOAD_RETENTION.receivingSeconds,
  };
  if (await startUpload(principalId, upload, nowMs)) return upload;
  // Another chunk of the same upload started it first.
  const raced = await findUpload(principalId, uploadKey, Date.now());
  if (!raced) throw new ServiceUnavailableError('The upload is changing; retry the chunk');
  mismatches(raced, query, plan);
  return raced;
}

/** Every chunk of an upload must describe the same file: a 400 naming each parameter that differs. */
function mismatches(upload: Upload, query: ResumableQuery, plan: ChunkPlan): void {
  const differs = (parameter: string, sent: unknown, recorded: unknown): FieldError[] =>
    sent === recorded
      ? []
      : [
          {
            in: 'query',
            path: `$.${parameter}`,
            rule: 'matches_upload',
            message: `is ${String(sent)}, but this upload was started with ${String(recorded)}`,
          },
        ];
  const errors = [
    ...differs('resumableFilename', query.resumableFilename, upload.fileName),
    ...differs('resumableTotalSize', query.resumableTotalSize, upload.totalSize),
    ...differs('resumableChunkSize', query.resumableChunkSize, upload.chunkSize),
    ...differs('resumableTotalChunks', plan.totalChunks, upload.totalChunks),
  ];
  if (errors.length > 0) {
    throw new BadRequestError(
      'UPLOAD_MISMATCH',
      `This chunk describes another file than the upload ${upload.identifier} being received`,
      errors,
    );
  }
}

/** A 400 (resumable.js stops on it): the upload is assembled, failed or attached and takes no new chunk. */
function uploadClosed(upload: Upload): BadRequestError {
  return new BadRequestError(
    'UPLOAD_CLOSED',
    `The upload ${upload.identifier} is ${upload.state} and takes no more chunks; use a new identifier for a new file`,
    [
      {
        in: 'query',
        path: '$.resumableIdentifier',
        rule: 'open_upload',
        message: `names an upload that is ${upload.state}`,
      },
    ],
  );
}
