import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '#shared/config/index.ts';
import { awsClientSettings } from './aws-client-settings.ts';
import { asksForCapacity, recordConsumedCapacity } from './capacity-meter.ts';

const client = new DynamoDBClient({ ...awsClientSettings(config().dynamoDbEndpoint), maxAttempts: 3 });

// Every call reports the capacity it consumed, so each request log line carries its cost.
client.middlewareStack.add(
  (next, context) => async (args) => {
    const commandName = String(context.commandName);
    const input = args.input as { ReturnConsumedCapacity?: string };
    if (asksForCapacity(commandName)) input.ReturnConsumedCapacity ??= 'TOTAL';
    const result = await next(args);
    const output = result.output as { ConsumedCapacity?: Parameters<typeof recordConsumedCapacity>[1] };
    recordConsumedCapacity(commandName, output.ConsumedCapacity);
    return result;
  },
  { step: 'initialize', name: 'consumedCapacityMeter' },
);

/** One DynamoDB document client per process, created at module scope so warm invocations reuse it. */
export const dynamoDb = DynamoDBDocumentClient.from(client, {
  marshallOptions: { removeUndefinedValues: true },
});
