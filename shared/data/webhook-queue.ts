/**
 * The queue of webhook delivery attempts (SQS in the cloud, the embedded stack's own queue locally). A
 * message names one delivery and the attempt it is for; it waits up to SQS's 15 minutes before it is
 * handed to the delivery function, and a longer wait is sent on again when it comes due
 * (webhook-delivery.ts). Messages are at least once: the attempt claims its delivery first.
 */
import { SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import { sqs } from '#shared/clients/sqs.ts';
import { config } from '#shared/config/index.ts';
import { ServiceUnavailableError } from '#shared/domain/errors.ts';
import { unlessUnavailable } from './service-faults.ts';

/** SQS's longest delay. */
export const MAX_QUEUE_DELAY_SECONDS = 900;
/** SendMessageBatch takes at most 10 messages. */
const BATCH = 10;

export interface AttemptMessage {
  webhookId: string;
  deliveryId: string;
  /** The attempt it starts: the delivery's attempts so far when it was sent. */
  attempt: number;
  /**
   * Sent again by a copy that met another attempt's claim: it stands in for that attempt only if the
   * attempt died before recording its outcome (its own message takes up what it left after recording).
   */
  afterClaim?: true;
}

export function parseAttemptMessage(body: string): AttemptMessage | undefined {
  try {
    const { webhookId, deliveryId, attempt, afterClaim } = JSON.parse(body) as Partial<AttemptMessage>;
    if (typeof webhookId === 'string' && typeof deliveryId === 'string' && Number.isInteger(attempt)) {
      return {
        webhookId,
        deliveryId,
        attempt: attempt as number,
        ...(afterClaim === true ? { afterClaim } : {}),
      };
    }
  } catch {
    // Not one of ours: dropped by the caller.
  }
  return undefined;
}

/** Sends attempt messages, each after its delay (capped at the queue's 15 minutes). */
export async function enqueueAttempts(
  messages: (AttemptMessage & { delaySeconds?: number })[],
): Promise<void> {
  const QueueUrl = config().webhookQueueUrl;
  if (!QueueUrl) throw new Error('WEBHOOK_QUEUE_URL is not set: webhooks cannot be delivered');
  for (let start = 0; start < messages.length; start += BATCH) {
    const batch = messages.slice(start, start + BATCH);
    const { Failed = [] } = await unlessUnavailable(
      sqs().send(
        new SendMessageBatchCommand({
          QueueUrl,
          Entries: batch.map(({ delaySeconds = 0, ...message }, i) => ({
            Id: String(i),
            MessageBody: JSON.stringify(message),
            DelaySeconds: Math.min(MAX_QUEUE_DELAY_SECONDS, Math.max(0, Math.ceil(delaySeconds))),
          })),
        }),
      ),
      'The delivery queue is busy; retry',
    );
    if (Failed.length > 0) {
      const reason = `the queue refused ${Failed.length} attempt messages: ${Failed[0]?.Message ?? Failed[0]?.Code}`;
      // An entry the queue failed on its side may simply be sent again; one it blames on the sender is a bug.
      if (Failed.some((entry) => entry.SenderFault)) throw new Error(reason);
      throw new ServiceUnavailableError(`The delivery queue is busy (${reason}); retry`);
    }
  }
}
