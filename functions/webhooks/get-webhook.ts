import { getWebhook } from '#shared/api/operations/webhooks.ts';
import { handle } from '#shared/http/operation.ts';
import { json } from '#shared/http/responses.ts';
import * as webhooks from '#shared/services/webhook-service.ts';

/** GET /api/v1/webhooks/{webhookId}. */
export const handler = handle(getWebhook, async ({ caller, path }) =>
  json(200, await webhooks.getWebhook(caller, path.webhookId), { 'cache-control': 'no-store' }),
);
