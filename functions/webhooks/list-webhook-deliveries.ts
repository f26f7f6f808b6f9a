import { listWebhookDeliveries } from '#shared/api/operations/webhooks.ts';
import { handle } from '#shared/http/operation.ts';
import { json } from '#shared/http/responses.ts';
import { deliveriesPage } from '#shared/services/webhook-service.ts';

/** GET /api/v1/webhooks/{webhookId}/deliveries: the delivery log, newest first. */
export const handler = handle(listWebhookDeliveries, async ({ caller, path, query }) =>
  json(200, await deliveriesPage(caller, path.webhookId, query), { 'cache-control': 'no-store' }),
);
