import { listWebhooks } from '#shared/api/operations/webhooks.ts';
import { handle } from '#shared/http/operation.ts';
import { json } from '#shared/http/responses.ts';
import * as webhooks from '#shared/services/webhook-service.ts';

/** GET /api/v1/webhooks: the endpoints the caller manages. */
export const handler = handle(listWebhooks, async ({ caller }) =>
  json(200, await webhooks.listWebhooks(caller), { 'cache-control': 'no-store' }),
);
