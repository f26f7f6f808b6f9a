import { myActions } from '#shared/api/operations/actions.ts';
import { apiBase } from '#shared/http/api-base.ts';
import { handle } from '#shared/http/operation.ts';
import { json } from '#shared/http/responses.ts';
import * as actions from '#shared/services/action-service.ts';

/** GET /api/v1/users/me/actions: the caller's own actions, paged, by due date. */
export const handler = handle(myActions, async ({ caller, query, event }) =>
  json(200, await actions.myActions(caller, query, apiBase(event)), { 'cache-control': 'no-store' }),
);
