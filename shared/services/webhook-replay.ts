/**
 * Sending a delivery again, on an administrator's word: apart from the other webhook operations because
 * it alone queues an attempt (its function carries the SQS client; theirs do not).
 */
import { enqueueAttempts } from '#shared/data/webhook-queue.ts';
import { findDelivery, putBackDelivery, reopenDelivery } from '#shared/data/webhook-repository.ts';
import { ConflictError, NotFoundError } from '#shared/domain/errors.ts';
import type { Caller } from '#shared/domain/user.ts';
import { DELIVERY_RETENTION_DAYS, type DeliveryView, deliveryView } from '#shared/domain/webhooks.ts';
import { managedWebhook } from './webhook-service.ts';

/** Sends a delivered or parked delivery again, from its first attempt (its log is kept). */
export async function replayDelivery(
  caller: Caller,
  webhookId: string,
  deliveryId: string,
): Promise<DeliveryView> {
  await managedWebhook(caller, webhookId);
  const notFound = new NotFoundError(
    'DELIVERY_NOT_FOUND',
    `No delivery ${deliveryId} of webhook ${webhookId}`,
  );
  const existing = await findDelivery(webhookId, deliveryId);
  if (!existing) throw notFound;
  const expires = Math.floor(Date.now() / 1000) + DELIVERY_RETENTION_DAYS * 86_400;
  const reopened = await reopenDelivery(webhookId, deliveryId, expires);
  if (!reopened) {
    throw new ConflictError(
      'DELIVERY_IN_PROGRESS',
      'The delivery is still being attempted (pending or retrying): wait for it to be delivered or parked',
    );
  }
  try {
    await enqueueAttempts([{ webhookId, deliveryId, attempt: 0 }]);
  } catch (error) {
    // Reopened but not queued, it would wait for a message that never comes, and refuse every later
    // replay as in progress: it goes back to delivered or parked (a busy queue is a 503: try again).
    await putBackDelivery(existing);
    throw error;
  }
  return deliveryView(reopened);
}
