import { createWebhook } from '#shared/api/operations/webhooks.ts';
import { handle } from '#shared/http/operation.ts';
import { json } from '#shared/http/responses.ts';
import { registerWebhook } from '#shared/services/webhook-service.ts';

/** POST /api/v1/webhooks: registers an endpoint; the answer shows its signing secret, once. */
export const handler = handle(createWebhook, async ({ caller, body }) =>
  json(201, await registerWebhook(caller, body), { 'cache-control': 'no-store' }),
);
