import { createActions } from '#shared/api/operations/actions.ts';
import { apiBase } from '#shared/http/api-base.ts';
import { handle } from '#shared/http/operation.ts';
import { json } from '#shared/http/responses.ts';
import { assignActions } from '#shared/services/action-service.ts';

/** POST /api/v1/admin/actions: assigns an action on an object to users (those who may publish it). */
export const handler = handle(createActions, async ({ caller, body, event }) =>
  json(201, await assignActions(caller, body, apiBase(event)), { 'cache-control': 'no-store' }),
);
