import { getAction } from '#shared/api/operations/actions.ts';
import { apiBase } from '#shared/http/api-base.ts';
import { handle } from '#shared/http/operation.ts';
import { json } from '#shared/http/responses.ts';
import * as actions from '#shared/services/action-service.ts';

/** GET /api/v1/admin/actions/{actionId}: one action. */
export const handler = handle(getAction, async ({ caller, path, event }) =>
  json(200, await actions.getAction(caller, path.actionId, apiBase(event)), { 'cache-control': 'no-store' }),
);
