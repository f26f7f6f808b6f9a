import { contractOperation } from '#shared/api/contract-operation.ts';
import { getActionContract } from '#shared/api/contracts.ts';
import { apiBase } from '#shared/http/api-base.ts';
import { json } from '#shared/http/responses.ts';
import { getAction } from '#shared/services/action-service.ts';

/** GET /api/v1/admin/actions/{actionId}: one action. */
export const handler = contractOperation('getAction', getActionContract, async ({ caller, path, event }) =>
  json(200, await getAction(caller, path.actionId, apiBase(event)), { 'cache-control': 'no-store' }),
);
