import { completeAction } from '#shared/api/operations/actions.ts';
import { apiBase } from '#shared/http/api-base.ts';
import { handle } from '#shared/http/operation.ts';
import { json } from '#shared/http/responses.ts';
import * as actions from '#shared/services/action-service.ts';

/** POST /api/v1/users/me/actions/{actionId}/done: the assignee completes their action. */
export const handler = handle(completeAction, async ({ caller, path, event }) =>
  json(200, await actions.completeAction(caller, path.actionId, apiBase(event)), {
    'cache-control': 'no-store',
  }),
);
