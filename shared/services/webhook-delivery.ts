/**
 * One attempt of one webhook delivery, as the delivery queue hands it over. The attempt claims its
 * delivery (only if it is still open and at this attempt, so a message delivered twice sends once),
 * signs the message as Standard Webhooks says (`webhook-id` the change's id, `webhook-timestamp`,
 * `webhook-signature` with the endpoint's secret, and with its previous one too for a day after a
 * rotation), posts it, and writes the outcome to the delivery's log:
 * - a 2xx answer: delivered;
 * - anything else (another status, no answer, a refused address): retried after the next wait of the
 *   schedule (webhooks.ts, or WEBHOOK_RETRY_SECONDS), through the queue; once the schedule is used up,
 *   parked, and the endpoint's count of failures in a row goes up. An administrator reads the log and
 *   replays what was parked.
 */
import { Webhook as Signer } from 'standardwebhooks';
import { type SendOutcome, sendWebhook } from '#shared/clients/webhook-http.ts';
import { config } from '#shared/config/index.ts';
import { type AttemptMessage, enqueueAttempts } from '#shared/data/webhook-queue.ts';
import { claimDelivery, findDelivery, findWebhook, recordAttempt } from '#shared/data/webhook-repository.ts';
import {
  ATTEMPT_TIMEOUT_MS,
  DELIVERY_LOG_LENGTH,
  type DeliveryAttempt,
  retryDelaySeconds,
  type Webhook,
} from '#shared/domain/webhooks.ts';

/** How long an attempt holds its delivery: longer than the attempt can take. */
const CLAIM_MS = ATTEMPT_TIMEOUT_MS + 20_000;
export const USER_AGENT = 'content-repository-webhooks/1';

/** The `webhook-signature` header: one signature per secret in force, space-separated. */
export function signatureOf(webhook: Webhook, messageId: string, at: Date, payload: string): string {
  const secrets = [webhook.secret];
  if (
    webhook.previousSecret &&
    webhook.previousSecretUntil &&
    Date.parse(webhook.previousSecretUntil) > at.getTime()
  ) {
    secrets.push(webhook.previousSecret);
  }
  return secrets.map((secret) => new Signer(secret).sign(messageId, at, payload)).join(' ');
}

/** The attempt's outcome for an endpoint that cannot be called (deleted, disabled). */
const notSent = (error: string): SendOutcome => ({ status: null, error, durationMs: 0, response: null });

/** Carries out the attempt a queue message names; nothing when it is no longer due or someone has it. */
export async function attemptDelivery(message: AttemptMessage, nowMs = Date.now()): Promise<void> {
  const { webhookId, deliveryId, attempt } = message;
  // The endpoint is read beside its delivery: most messages are due and need both.
  const [delivery, webhook] = await Promise.all([
    findDelivery(webhookId, deliveryId),
    findWebhook(webhookId),
  ]);
  if (!delivery) return;
  const waitMs = delivery.nextAttemptAt ? Date.parse(delivery.nextAttemptAt) - nowMs : 0;
  // This attempt was recorded but the message for the next one was not sent (the send failed, so the
  // queue hands this message over again): send it now. A copy sent twice is harmless (the claim). A copy
  // sent again after meeting this attempt's claim leaves it to the attempt's own message, or every
  // duplicate of SQS would follow the delivery to its end.
  if (delivery.attempts === attempt + 1 && delivery.state === 'retrying' && !message.afterClaim) {
    await enqueueAttempts([{ ...message, attempt: attempt + 1, delaySeconds: waitMs / 1000 }]);
    return;
  }
  if (delivery.attempts !== attempt) return;
  if (delivery.state !== 'pending' && delivery.state !== 'retrying') return;
  // A wait longer than the queue can hold comes back early: send it on for the rest of the wait.
  if (waitMs > 1000) {
    await enqueueAttempts([{ ...message, delaySeconds: waitMs / 1000 }]);
    return;
  }
  const claimed = await claimDelivery(webhookId, deliveryId, attempt, nowMs, nowMs + CLAIM_MS);
  if (!claimed) {
    await lookAgainAfterClaim(message, nowMs);
    return;
  }

  const at = new Date();
  let outcome: SendOutcome;
  if (!webhook) outcome = notSent('the endpoint was deleted');
  else if (!webhook.enabled) outcome = notSent('the endpoint is disabled');
  else {
    const configuration = config();
    outcome = await sendWebhook(
      webhook.url,
      {
        'content-type': 'application/json',
        'user-agent': USER_AGENT,
        'webhook-id': claimed.messageId,
        'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
        'webhook-signature': signatureOf(webhook, claimed.messageId, at, claimed.payload),
      },
      claimed.payload,
      { allowLoopback: configuration.webhookAllowLoopback },
    );
  }
  const entry: DeliveryAttempt = { at: at.toISOString(), ...outcome };
  const log = [...claimed.log, entry].slice(-DELIVERY_LOG_LENGTH);
  const delivered = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
  // A deleted or disabled endpoint is not retried: its delivery is parked at once (replayable).
  const delay =
    delivered || !webhook?.enabled ? undefined : retryDelaySeconds(attempt + 1, config().webhookRetrySeconds);
  const state = delivered ? 'delivered' : delay === undefined ? 'parked' : 'retrying';
  const nextAttemptAt = delay === undefined ? null : new Date(at.getTime() + delay * 1000).toISOString();
  const note =
    state === 'parked' && webhook
      ? 'failed'
      : state === 'delivered' && webhook && webhook.consecutiveFailures > 0
        ? 'recovered'
        : undefined;
  const recorded = await recordAttempt(
    webhookId,
    deliveryId,
    attempt,
    { state, log, nextAttemptAt, at: at.toISOString() },
    note,
  );
  if (recorded && state === 'retrying') {
    await enqueueAttempts([{ webhookId, deliveryId, attempt: attempt + 1, delaySeconds: delay }]);
  }
}

/**
 * Another attempt holds the delivery. It may finish it, or die with it (a crash, a timeout) and leave
 * only its claim: this message comes back once the claim has run out, and is dropped then if the delivery
 * has moved on. Dropping it now would leave a delivery whose holder died pending for good.
 */
async function lookAgainAfterClaim(message: AttemptMessage, nowMs: number): Promise<void> {
  const delivery = await findDelivery(message.webhookId, message.deliveryId);
  if (!delivery || delivery.attempts !== message.attempt) return;
  if (delivery.state !== 'pending' && delivery.state !== 'retrying') return;
  const claimLeftMs = Math.max(0, delivery.claimedUntil - nowMs);
  await enqueueAttempts([{ ...message, afterClaim: true, delaySeconds: claimLeftMs / 1000 + 1 }]);
}
