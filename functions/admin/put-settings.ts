import { putSettings } from '#shared/api/operations/admin.ts';
import { toPayload } from '#shared/domain/settings.ts';
import { handle } from '#shared/http/operation.ts';
import { json } from '#shared/http/responses.ts';
import { changeSettings } from '#shared/services/settings-service.ts';

/** PUT /api/v1/admin/settings: changes SESSION_TIMEOUT and WEBTOKEN_EXPIRES_IN. */
export const handler = handle(putSettings, async ({ caller, body }) =>
  json(200, toPayload(await changeSettings(caller, body)), { 'cache-control': 'no-store' }),
);
