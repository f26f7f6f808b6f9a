/**
 * The upload area (spec §4.2, resumable.js): chunks received out of order and in parallel, a chunk sent
 * twice stored once, and the upload completed by its last chunk (upload-status.ts answers the rest).
 */

import { createHash } from 'node:crypto';
import { putChunk } from '#shared/data/upload-chunk-store.ts';
import { countOpenUploads, findUpload, recordChunk, startUpload } from '#shared/data/upload-repository.ts';
import { BadRequestError, ServiceUnavailableError } from '#shared/domain/errors.ts';
import { timestamp } from '#shared/domain/node.ts';
import {
  type ChunkPlan,
  checkChunkBody,
  planChunk,
  type ResumableQuery,
  UPLOAD_LIMITS,
} from '#shared/domain/uploads/chunk-rules.ts';
import { sameFileOrRefuse } from '#shared/domain/uploads/same-file.ts';
import {
  isFinished,
  receivingExpiresAtEpoch,
  type Upload,
  uploadKeyOf,
} from '#shared/domain/uploads/upload.ts';
import { unknownUpload } from '#shared/domain/uploads/upload-errors.ts';
import type { Caller } from '#shared/domain/user.ts';

/**
 * Receives one chunk. Resolves when it is stored (and, if it was the last, the file assembled or handed
 * on). `stored` is the caller's upload record as read for this request (readOwnUpload).
 */
export async function receiveChunk(
  caller: Caller,
  query: ResumableQuery,
  body: Buffer,
  stored: Promise<Upload | null>,
): Promise<void> {
  const plan = planChunk(query);
  checkChunkBody(plan, query, body.length);
  const { principalId } = caller.principal;
  const uploadKey = uploadKeyOf(query.resumableIdentifier);
  const upload = await openUpload(principalId, uploadKey, query, plan, await stored);
  if (upload.chunks.has(plan.chunkNumber)) {
    // Sent twice: stored once. An upload of one chunk holds the file it was, so another body there is
    // another file (resumable.js names a file by its size and name: a corrected one of the same size).
    if (plan.totalChunks === 1) refuseAnotherFile(upload, body);
    return;
  }
  if (upload.state !== 'receiving') throw uploadClosed(upload);

  await putChunk(principalId, uploadKey, plan.chunkNumber, body);
  const before = await recordChunk(principalId, uploadKey, upload, plan.chunkNumber, Date.now());
  if (!before) {
    // The upload moved on (or expired) while the chunk was stored: fine if the chunk was in already.
    const now = await findUpload(principalId, uploadKey, Date.now());
    if (now?.chunks.has(plan.chunkNumber)) return;
    // Another upload started under the identifier meanwhile (this one had expired): its chunk goes there.
    if (now?.state === 'receiving')
      throw new ServiceUnavailableError('The upload started over; retry the chunk');
    throw now ? uploadClosed(now) : unknownUpload(query.resumableIdentifier);
  }
  const completedIt = !before.chunks.has(plan.chunkNumber) && before.chunks.size + 1 === before.totalChunks;
  if (completedIt) {
    // The assembly (the S3 client, its multipart calls, the assembly function's invoke) loads with the
    // first upload this instance completes, not at every cold start of a function that stores chunks.
    const { assembleCompletedUpload } = await import('./upload-assembly.ts');
    await assembleCompletedUpload({ principalId, uploadKey }, plan.fileBytes ?? body.length);
  }
}

/** The upload this chunk belongs to: found and consistent with the chunk, or started by it. */
async function openUpload(
  principalId: string,
  uploadKey: string,
  query: ResumableQuery,
  plan: ChunkPlan,
  existing: Upload | null,
): Promise<Upload> {
  const nowMs = Date.now();
  // A finished upload (attached, or failed) names the next one: this chunk starts it (see startUpload).
  if (existing && !isFinished(existing)) {
    sameFileOrRefuse(existing, query, plan);
    return existing;
  }
  if ((await countOpenUploads(principalId, nowMs)) >= UPLOAD_LIMITS.maxOpenUploadsPerUser) {
    // A 400, not a 409 or 429: resumable.js retries those up to 100 times; this needs the user to act.
    throw new BadRequestError(
      'TOO_MANY_OPEN_UPLOADS',
      `You have ${UPLOAD_LIMITS.maxOpenUploadsPerUser} uploads that are not attached to a document; attach ` +
        'them, or wait for them to expire (a day after their last chunk and at most 2 days after their first, ' +
        'a week after they completed)',
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
    expiresAtEpoch: receivingExpiresAtEpoch(at, nowMs),
  };
  if (await startUpload(principalId, upload, nowMs)) return upload;
  // Another chunk of the same upload started it first.
  const raced = await findUpload(principalId, uploadKey, Date.now());
  if (!raced) throw new ServiceUnavailableError('The upload is changing; retry the chunk');
  sameFileOrRefuse(raced, query, plan);
  return raced;
}

/** A 400: the upload holds its file already, and this body is not that file (a new file needs a new identifier). */
function refuseAnotherFile(upload: Upload, body: Buffer): void {
  const { file } = upload;
  if (!file) return; // still being assembled: what it holds is not known yet
  if (file.size === body.length && file.sha256 === createHash('sha256').update(body).digest('hex')) return;
  throw new BadRequestError(
    'UPLOAD_MISMATCH',
    `The upload ${upload.identifier} holds another file (${file.size} bytes); send a new file under a new identifier`,
    [
      {
        in: 'body',
        path: '$',
        rule: 'matches_upload',
        message: `is not the file this upload holds (${file.size} bytes, SHA-256 ${file.sha256})`,
      },
    ],
  );
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
