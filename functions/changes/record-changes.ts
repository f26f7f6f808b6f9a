/**
 * The change recorder (a background job on the table's stream): records each batch of stream records
 * in the change feed. A failure fails the batch; the stream hands it over again, whole (README "Keeping
 * a copy in sync"). The embedded stack calls it from its local stream, the same way.
 */
import type { Context, DynamoDBStreamEvent } from 'aws-lambda';
import { metered } from '#shared/clients/capacity-meter.ts';
import { config } from '#shared/config/index.ts';
import { type ChangeStreamRecord, recordChanges } from '#shared/services/change-recorder.ts';

export async function handler(
  event: Pick<DynamoDBStreamEvent, 'Records'> | { Records: ChangeStreamRecord[] },
  context?: Pick<Context, 'awsRequestId'>,
): Promise<void> {
  const started = Date.now();
  const { result: recorded, consumed } = await metered(() =>
    recordChanges(event.Records as ChangeStreamRecord[]),
  );
  // A batch of items no client hears about (the feed's own, counts, sessions) is not worth a line.
  if (config().logLevel === 'silent' || recorded === 0) return;
  console.log(
    JSON.stringify({
      operation: 'recordChanges',
      requestId: context?.awsRequestId,
      records: event.Records.length,
      recorded,
      latencyMs: Date.now() - started,
      consumedRCU: consumed.readCapacityUnits,
      consumedWCU: consumed.writeCapacityUnits,
    }),
  );
}
