import { contractOperation } from '#shared/api/contract-operation.ts';
import { completeActionContract } from '#shared/api/contracts.ts';
import { json } from '#shared/http/responses.ts';
import { completeAction } from '#shared/services/action-service.ts';

/** POST /api/v1/users/me/actions/{actionId}/done: the assignee completes their action. */
export const handler = contractOperation('completeAction', completeActionContract, async ({ caller, path }) =>
  json(200, await completeAction(caller, path.actionId), { 'cache-control': 'no-store' }),
);
