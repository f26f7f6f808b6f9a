import { updateWebhook } from '#shared/api/operations/webhooks.ts';
import { handle } from '#shared/http/operation.ts';
import { json } from '#shared/http/responses.ts';
import * as webhooks from '#shared/services/webhook-service.ts';

/** PATCH /api/v1/webhooks/{webhookId}: changes the fields given. */
export const handler = handle(updateWebhook, async ({ caller, path, body }) =>
  json(200, await webhooks.updateWebhook(caller, path.webhookId, body), { 'cache-control': 'no-store' }),
);
