import { deleteWebhook } from '#shared/api/operations/webhooks.ts';
import { handle } from '#shared/http/operation.ts';
import { empty } from '#shared/http/responses.ts';
import { removeWebhook } from '#shared/services/webhook-service.ts';

/** DELETE /api/v1/webhooks/{webhookId}. */
export const handler = handle(deleteWebhook, async ({ caller, path }) => {
  await removeWebhook(caller, path.webhookId);
  return empty(204);
});
