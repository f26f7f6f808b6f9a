import { contractOperation } from '#shared/api/contract-operation.ts';
import { putSettingsContract } from '#shared/api/contracts.ts';
import { toPayload } from '#shared/domain/settings.ts';
import { json } from '#shared/http/responses.ts';
import { changeSettings } from '#shared/services/settings-service.ts';

/** PUT /api/v1/admin/settings: changes SESSION_TIMEOUT and WEBTOKEN_EXPIRES_IN. */
export const handler = contractOperation('putSettings', putSettingsContract, async ({ caller, body }) =>
  json(200, toPayload(await changeSettings(caller, body)), { 'cache-control': 'no-store' }),
);
