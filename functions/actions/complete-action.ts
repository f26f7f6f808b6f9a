import { contractOperation } from '#shared/api/contract-operation.ts';
import { completeActionContract } from '#shared/api/contracts.ts';
import { apiBase } from '#shared/http/api-base.ts';
import { json } from '#shared/http/responses.ts';
import { completeAction } from '#shared/services/action-service.ts';

/** POST /api/v1/users/me/actions/{actionId}/done: the assignee completes their action. */
export const handler = contractOperation(
  'completeAction',
  completeActionContract,
  async ({ caller, path, event }) =>
    json(200, await completeAction(caller, path.actionId, apiBase(event)), { 'cache-control': 'no-store' }),
);
