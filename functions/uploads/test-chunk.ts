import { testChunk } from '#shared/api/operations/uploads.ts';
import { handle } from '#shared/http/operation.ts';
import { empty } from '#shared/http/responses.ts';
import { hasChunk } from '#shared/services/upload-status.ts';

/** GET /upload/: 200 when the chunk is stored already, 204 when it is not (resumable.js testChunks). */
export const handler = handle(testChunk, async ({ caller, query }) =>
  empty((await hasChunk(caller, query)) ? 200 : 204, { 'cache-control': 'no-store' }),
);
