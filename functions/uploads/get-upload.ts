import { getUpload } from '#shared/api/operations/uploads.ts';
import { uploadUrl } from '#shared/http/api-base.ts';
import { handle } from '#shared/http/operation.ts';
import { json } from '#shared/http/responses.ts';
import { uploadStatus } from '#shared/services/upload-status.ts';

/** GET /api/v1/uploads/{identifier}: one of the caller's uploads and its state. */
export const handler = handle(getUpload, async ({ caller, path, event }) =>
  json(
    200,
    { ...(await uploadStatus(caller, path.identifier)), uploadUrl: uploadUrl(event) },
    { 'cache-control': 'no-store' },
  ),
);
