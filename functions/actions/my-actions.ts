import { contractOperation } from '#shared/api/contract-operation.ts';
import { myActionsContract } from '#shared/api/contracts.ts';
import { apiBase } from '#shared/http/api-base.ts';
import { json } from '#shared/http/responses.ts';
import { myActions } from '#shared/services/action-service.ts';

/** GET /api/v1/users/me/actions: the caller's own actions, paged, by due date. */
export const handler = contractOperation('myActions', myActionsContract, async ({ caller, query, event }) =>
  json(200, await myActions(caller, query, apiBase(event)), { 'cache-control': 'no-store' }),
);
