import { SQSClient } from '@aws-sdk/client-sqs';
import { perConfig } from '#shared/config/index.ts';
import { awsClientSettings, withoutSdkLogging } from './aws-client-settings.ts';

/** One SQS client per configuration; on the embedded stack it reaches the in-process queue. */
export const sqs = perConfig((configuration) =>
  withoutSdkLogging(new SQSClient(awsClientSettings(configuration, configuration.sqsEndpoint))),
);
