/**
 * The webhook dispatcher (a background function on the table's stream, taking only the change feed's
 * new items: CHANGE_ITEM_FILTER): records each change's deliveries and queues their first attempts. A
 * failure fails the batch; the stream hands it over again, and what was done is not done twice
 * (webhook-dispatch.ts). The embedded stack calls it from its local stream, the same way.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { Context, DynamoDBStreamEvent } from 'aws-lambda';
import { metered } from '#shared/clients/capacity-meter.ts';
import { config } from '#shared/config/index.ts';
import { type StoredChange, storedChangeOf } from '#shared/data/change-repository.ts';
import { CHANGES_PREFIX } from '#shared/data/keys.ts';
import { dispatchChanges } from '#shared/services/webhook-dispatch.ts';

interface ChangeRecord {
  eventName?: string;
  dynamodb?: { NewImage?: Record<string, AttributeValue> };
}

/** The change a record inserted into the feed; nothing for any other record. */
function storedChange(record: ChangeRecord): StoredChange | undefined {
  const image = record.dynamodb?.NewImage;
  if (record.eventName !== 'INSERT' || !image) return undefined;
  const item = unmarshall(image);
  return String(item.PK).startsWith(CHANGES_PREFIX) ? storedChangeOf(item) : undefined;
}

export async function handler(
  event: Pick<DynamoDBStreamEvent, 'Records'> | { Records: ChangeRecord[] },
  context?: Pick<Context, 'awsRequestId'>,
): Promise<void> {
  const started = Date.now();
  const changes = (event.Records as ChangeRecord[]).flatMap((record) => storedChange(record) ?? []);
  const { result: queued, consumed } = await metered(() => dispatchChanges(changes));
  if (config().logLevel === 'silent' || queued === 0) return;
  console.log(
    JSON.stringify({
      operation: 'dispatchWebhooks',
      requestId: context?.awsRequestId,
      changes: changes.length,
      queued,
      latencyMs: Date.now() - started,
      consumedRCU: consumed.readCapacityUnits,
      consumedWCU: consumed.writeCapacityUnits,
    }),
  );
}
