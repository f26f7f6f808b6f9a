import { testChunk } from '#shared/api/operations/uploads.ts';
import { uploadParameters } from '#shared/http/middleware/upload-parameters.ts';
import { handle } from '#shared/http/operation.ts';
import { empty } from '#shared/http/responses.ts';
import { hasChunk, readOwnUpload } from '#shared/services/upload-status.ts';

/** GET /upload/: 200 when the chunk is stored already, 204 when it is not (resumable.js and flow.js testChunks). */
export const handler = handle(
  testChunk,
  {
    // flow.js names the parameters flow….
    parameters: uploadParameters(),
    // The caller's upload record is read beside the session check.
    prefetch: ({ query }, { principalId }) => readOwnUpload(principalId, query.resumableIdentifier),
  },
  async ({ query, prefetched }) =>
    empty((await hasChunk(query, prefetched)) ? 200 : 204, { 'cache-control': 'no-store' }),
);
