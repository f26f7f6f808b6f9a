/**
 * The webhook deliverer (a background function on the delivery queue): one attempt per message, five at
 * once (webhook-delivery.ts). A message whose attempt fails on our side (the table, the queue) is
 * reported back as failed and SQS hands it over again (after the queue's receive limit, to its
 * dead-letter queue); an endpoint that fails is not our failure: that attempt is logged and retried
 * through the queue on the delivery's schedule.
 */
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { config } from '#shared/config/index.ts';
import { parseAttemptMessage } from '#shared/data/webhook-queue.ts';
import { inPool } from '#shared/services/in-pool.ts';
import { attemptDelivery } from '#shared/services/webhook-delivery.ts';

const AT_ONCE = 5;

export async function handler(
  event: Pick<SQSEvent, 'Records'>,
  context?: Pick<Context, 'awsRequestId'>,
): Promise<SQSBatchResponse> {
  const failures: SQSBatchResponse['batchItemFailures'] = [];
  // Each attempt answers for itself: a failure is reported for its message, the others go on.
  await inPool(event.Records, AT_ONCE, async (record) => {
    const message = parseAttemptMessage(record.body);
    if (!message) return; // Not ours: dropped, not retried.
    try {
      await attemptDelivery(message);
    } catch (error) {
      failures.push({ itemIdentifier: record.messageId });
      if (config().logLevel !== 'silent') {
        console.error(
          JSON.stringify({
            level: 'error',
            operation: 'deliverWebhooks',
            requestId: context?.awsRequestId,
            message,
            error: String(error),
          }),
        );
      }
    }
  });
  return { batchItemFailures: failures };
}
