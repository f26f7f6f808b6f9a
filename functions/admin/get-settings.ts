import { getSettings } from '#shared/api/operations/admin.ts';
import { toPayload } from '#shared/domain/settings.ts';
import { handle } from '#shared/http/operation.ts';
import { json } from '#shared/http/responses.ts';
import { readSettings } from '#shared/services/settings-service.ts';

/** GET /api/v1/admin/settings: SESSION_TIMEOUT and WEBTOKEN_EXPIRES_IN in force. */
export const handler = handle(getSettings, async ({ caller }) =>
  json(200, toPayload(await readSettings(caller)), { 'cache-control': 'no-store' }),
);
