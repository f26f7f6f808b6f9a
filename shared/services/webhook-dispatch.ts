/**
 * Turns recorded changes into webhook deliveries. Runs on the table's stream, on the change feed's own
 * items (each change once it is recorded), off every request: for each change and each enabled endpoint
 * whose scope, events and node types take it, one delivery is recorded and its first attempt queued.
 *
 * A batch handed over again (the stream retries a failed one) finds its deliveries recorded already; a
 * delivery still waiting for its first attempt is queued again, in case the first run ended between
 * recording it and queueing it (an attempt claims its delivery, so a second message sends nothing twice).
 * A change the recorder wrote twice (at least once) is two deliveries with one `webhook-id`.
 */
import type { StoredChange } from '#shared/data/change-repository.ts';
import type { StoredDelivery } from '#shared/data/entities/webhooks.ts';
import { type AttemptMessage, enqueueAttempts } from '#shared/data/webhook-queue.ts';
import { allWebhooks, createDelivery, findDelivery } from '#shared/data/webhook-repository.ts';
import {
  DELIVERY_RETENTION_DAYS,
  deliveryIdOf,
  type EventType,
  eventTypeOf,
  messageOf,
  subscribed,
  type Webhook,
} from '#shared/domain/webhooks.ts';
import { changeView } from './change-feed.ts';
import { inPool } from './in-pool.ts';

/** Deliveries recorded at once (each is its own conditional put). */
const PARALLEL_PUTS = 16;

/** Whether an endpoint takes a change of this type. */
export function takes(webhook: Webhook, change: StoredChange, type: EventType): boolean {
  if (!webhook.enabled || !subscribed(webhook.events, type)) return false;
  if (webhook.nodeTypes && !(change.nodeType && webhook.nodeTypes.includes(change.nodeType))) return false;
  const { scopeNodeId } = webhook;
  if (scopeNodeId === null) return true;
  const inScope = (placed: { nodeId: string; ancestorIds: string[] }) =>
    placed.nodeId === scopeNodeId || placed.ancestorIds.includes(scopeNodeId);
  // A link to an object outside the scope names that object: not for an endpoint of this scope; nor is
  // one to an object gone before the change was recorded (it cannot be placed).
  if (change.target === null) return false;
  return inScope(change) && (!change.target || inScope(change.target));
}

/** Records and queues the deliveries of these changes; answers how many were queued. */
export async function dispatchChanges(changes: StoredChange[], nowMs = Date.now()): Promise<number> {
  const typed = changes.flatMap((change) => {
    const type = eventTypeOf(change.kind);
    return type ? [{ change, type }] : [];
  });
  if (typed.length === 0) return 0;
  const endpoints = await allWebhooks();
  const due: StoredDelivery[] = [];
  for (const { change, type } of typed) {
    // One message per change, whichever endpoints take it; the parent is named only where it is in scope
    // (an environment admin's endpoint for a folder is not told the environment, as the feed tells none).
    let whole: string | undefined;
    let parentless: string | undefined;
    const messageFor = (parentInScope: boolean): string => {
      if (parentInScope) {
        whole ??= messageOf(changeView(change), type);
        return whole;
      }
      parentless ??= messageOf({ ...changeView(change), parentId: null }, type);
      return parentless;
    };
    for (const webhook of endpoints) {
      if (!takes(webhook, change, type)) continue;
      const payload = messageFor(
        webhook.scopeNodeId === null || change.ancestorIds.includes(webhook.scopeNodeId),
      );
      due.push({
        webhookId: webhook.webhookId,
        deliveryId: deliveryIdOf(change),
        messageId: change.changeId,
        type,
        payload,
        state: 'pending',
        attempts: 0,
        nextAttemptAt: null,
        createdAt: new Date(nowMs).toISOString(),
        deliveredAt: null,
        parkedAt: null,
        log: [],
        expiresAtEpoch: Math.floor(nowMs / 1000) + DELIVERY_RETENTION_DAYS * 86_400,
        claimedUntil: 0,
      });
    }
  }
  const queued: AttemptMessage[] = [];
  await inPool(due, PARALLEL_PUTS, async (delivery) => {
    const { webhookId, deliveryId } = delivery;
    if (!(await createDelivery(delivery))) {
      const earlier = await findDelivery(webhookId, deliveryId);
      if (earlier?.state !== 'pending' || earlier.attempts !== 0) return;
    }
    queued.push({ webhookId, deliveryId, attempt: 0 });
  });
  await enqueueAttempts(queued);
  return queued.length;
}
