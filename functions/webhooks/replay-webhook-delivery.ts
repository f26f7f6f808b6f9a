import { replayWebhookDelivery } from '#shared/api/operations/webhooks.ts';
import { handle } from '#shared/http/operation.ts';
import { json } from '#shared/http/responses.ts';
import { replayDelivery } from '#shared/services/webhook-replay.ts';

/** POST /api/v1/webhooks/{webhookId}/deliveries/{deliveryId}/replay: sends it again. */
export const handler = handle(replayWebhookDelivery, async ({ caller, path }) =>
  json(202, await replayDelivery(caller, path.webhookId, path.deliveryId), { 'cache-control': 'no-store' }),
);
