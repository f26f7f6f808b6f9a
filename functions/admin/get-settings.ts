import { contractOperation } from '#shared/api/contract-operation.ts';
import { getSettingsContract } from '#shared/api/contracts.ts';
import { toPayload } from '#shared/domain/settings.ts';
import { json } from '#shared/http/responses.ts';
import { readSettings } from '#shared/services/settings-service.ts';

/** GET /api/v1/admin/settings: SESSION_TIMEOUT and WEBTOKEN_EXPIRES_IN in force. */
export const handler = contractOperation('getSettings', getSettingsContract, async ({ caller }) =>
  json(200, toPayload(await readSettings(caller)), { 'cache-control': 'no-store' }),
);
