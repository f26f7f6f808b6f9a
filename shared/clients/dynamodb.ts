import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { perConfig } from '#shared/config/index.ts';
import { underRetryPolicy } from '#shared/data/retry-policy.ts';
import { awsClientSettings, withoutSdkLogging } from './aws-client-settings.ts';
import { asksForCapacity, recordCall, recordConsumedCapacity } from './capacity-meter.ts';
import { nextClientRequestToken } from './invocation.ts';

/**
 * One DynamoDB document client per configuration (per process in Lambda, created on first use and reused
 * by warm invocations). Every call reports the capacity it consumed, so each request log line carries
 * its cost, and runs under the one retry policy (shared/data/retry-policy.ts).
 */
export const dynamoDb = perConfig((configuration) => {
  const client = withoutSdkLogging(
    new DynamoDBClient({
      ...awsClientSettings(configuration, configuration.dynamoDbEndpoint),
      maxAttempts: 3,
    }),
  );
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const commandName = String(context.commandName);
      const input = args.input as { ReturnConsumedCapacity?: string };
      if (asksForCapacity(commandName)) input.ReturnConsumedCapacity ??= 'TOTAL';
      const start = performance.now();
      const result = await next(args).finally(() => recordCall(start, performance.now()));
      const output = result.output as { ConsumedCapacity?: Parameters<typeof recordConsumedCapacity>[1] };
      recordConsumedCapacity(commandName, output.ConsumedCapacity);
      return result;
    },
    { step: 'initialize', name: 'consumedCapacityMeter' },
  );
  const documents = DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
  // The one retry policy, around the SDK's own retries: every call of every repository goes through it.
  // Options (an abortSignal: the change recorder's deadline) go with the call.
  const send = ((command: Parameters<typeof documents.send>[0], options?: { abortSignal?: AbortSignal }) =>
    underRetryPolicy(() => {
      // Each attempt of a transaction gets its own token, which the SDK repeats on its own retries.
      if (command instanceof TransactWriteCommand)
        command.input.ClientRequestToken = nextClientRequestToken();
      return options ? documents.send(command, options) : documents.send(command);
    })) as typeof documents.send;
  return { send };
});
