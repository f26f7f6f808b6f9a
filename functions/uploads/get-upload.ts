import { getUpload } from '#shared/api/operations/uploads.ts';
import { uploadUrl } from '#shared/http/api-base.ts';
import { handle } from '#shared/http/operation.ts';
import { json } from '#shared/http/responses.ts';
import { readOwnUpload, uploadStatus } from '#shared/services/upload-status.ts';

/** GET /api/v1/uploads/{identifier}: one of the caller's uploads and its state. */
export const handler = handle(
  getUpload,
  // The caller's upload record is read beside the session check.
  { prefetch: ({ path }, { principalId }) => readOwnUpload(principalId, path.identifier) },
  async ({ caller, path, event, prefetched }) =>
    json(
      200,
      { ...(await uploadStatus(caller, path.identifier, prefetched)), uploadUrl: uploadUrl(event) },
      { 'cache-control': 'no-store' },
    ),
);
