import { receiveChunk } from '#shared/api/operations/uploads.ts';
import { readChunkBody } from '#shared/http/chunk-body.ts';
import { uploadParameters } from '#shared/http/middleware/upload-parameters.ts';
import { handle } from '#shared/http/operation.ts';
import { empty } from '#shared/http/responses.ts';
import { receiveChunk as receive } from '#shared/services/upload-service.ts';
import { readOwnUpload } from '#shared/services/upload-status.ts';

/** POST /upload/: one chunk of a resumable.js or flow.js upload; 200 with an empty body (spec §4.2). */
export const handler = handle(
  receiveChunk,
  {
    // The parameters come in the query or the form, named by resumable.js or flow.js.
    parameters: uploadParameters(readChunkBody),
    // The caller's upload record is read beside the session check.
    prefetch: ({ query }, { principalId }) => readOwnUpload(principalId, query.resumableIdentifier),
  },
  async ({ caller, query, body, prefetched }) => {
    // A multipart form is read down to its file part by uploadParameters.
    await receive(caller, query, body?.bytes ?? Buffer.alloc(0), prefetched);
    return empty(200, { 'cache-control': 'no-store' });
  },
);
