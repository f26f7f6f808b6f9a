import { LambdaClient } from '@aws-sdk/client-lambda';
import { perConfig } from '#shared/config/index.ts';
import { awsClientSettings, withoutSdkLogging } from './aws-client-settings.ts';

/** One Lambda client per configuration; on the embedded stack it reaches the in-process Invoke API. */
export const lambda = perConfig((configuration) =>
  withoutSdkLogging(new LambdaClient(awsClientSettings(configuration, configuration.lambdaEndpoint))),
);
