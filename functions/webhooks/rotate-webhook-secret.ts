import { rotateWebhookSecret } from '#shared/api/operations/webhooks.ts';
import { handle } from '#shared/http/operation.ts';
import { json } from '#shared/http/responses.ts';
import { rotateSecret } from '#shared/services/webhook-service.ts';

/** POST /api/v1/webhooks/{webhookId}/secret: a new signing secret, shown once; the old one signs a day more. */
export const handler = handle(rotateWebhookSecret, async ({ caller, path }) =>
  json(200, await rotateSecret(caller, path.webhookId), { 'cache-control': 'no-store' }),
);
