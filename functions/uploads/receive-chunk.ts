import { receiveChunk } from '#shared/api/operations/uploads.ts';
import { chunkBytesOf } from '#shared/http/chunk-body.ts';
import { handle } from '#shared/http/operation.ts';
import { empty } from '#shared/http/responses.ts';
import { receiveChunk as receive } from '#shared/services/upload-service.ts';

/** POST /upload/: one chunk of a resumable.js upload; 200 with an empty body (spec §4.2). */
export const handler = handle(receiveChunk, async ({ caller, query, body }) => {
  const bytes = body ? await chunkBytesOf(body) : Buffer.alloc(0);
  await receive(caller, query, bytes);
  return empty(200, { 'cache-control': 'no-store' });
});
