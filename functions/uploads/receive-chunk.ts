import { receiveChunk } from '#shared/api/operations/uploads.ts';
import { chunkBytesOf } from '#shared/http/chunk-body.ts';
import { handle } from '#shared/http/operation.ts';
import { empty } from '#shared/http/responses.ts';
import { receiveChunk as receive } from '#shared/services/upload-service.ts';
import { readOwnUpload } from '#shared/services/upload-status.ts';

/** POST /upload/: one chunk of a resumable.js upload; 200 with an empty body (spec §4.2). */
export const handler = handle(
  receiveChunk,
  // The caller's upload record is read beside the session check.
  { prefetch: ({ query }, { principalId }) => readOwnUpload(principalId, query.resumableIdentifier) },
  async ({ caller, query, body, prefetched }) => {
    const bytes = body ? await chunkBytesOf(body) : Buffer.alloc(0);
    await receive(caller, query, bytes, prefetched);
    return empty(200, { 'cache-control': 'no-store' });
  },
);
