import { contractOperation } from '#shared/api/contract-operation.ts';
import { getActionContract } from '#shared/api/contracts.ts';
import { json } from '#shared/http/responses.ts';
import { getAction } from '#shared/services/action-service.ts';

/** GET /api/v1/admin/actions/{actionId}: one action. */
export const handler = contractOperation('getAction', getActionContract, async ({ caller, path }) =>
  json(200, await getAction(caller, path.actionId), { 'cache-control': 'no-store' }),
);
