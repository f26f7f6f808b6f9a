import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { perConfig } from '#shared/config/index.ts';
import { awsClientSettings, withoutSdkLogging } from './aws-client-settings.ts';

/** One Lambda client per configuration; on the embedded stack it reaches the in-process Invoke API. */
export const lambda = perConfig((configuration) =>
  withoutSdkLogging(new LambdaClient(awsClientSettings(configuration, configuration.lambdaEndpoint))),
);

/**
 * Invokes a function asynchronously (Lambda queues the event and retries it twice on failure). Named
 * imports here, not `import('@aws-sdk/client-lambda')` where it is needed: a dynamic import of the
 * package keeps every command and schema of the client in the chunk that loads it.
 */
export function invokeAsynchronously(functionName: string, event: unknown) {
  return lambda().send(
    new InvokeCommand({
      FunctionName: functionName,
      InvocationType: 'Event',
      Payload: Buffer.from(JSON.stringify(event)),
    }),
  );
}
