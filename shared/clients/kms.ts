import { KMSClient } from '@aws-sdk/client-kms';
import { perConfig } from '#shared/config/index.ts';
import { withoutSdkLogging } from './aws-client-settings.ts';

/** KMS signs access tokens in the cloud; the embedded stack signs with a key file instead. */
export const kms = perConfig((configuration) =>
  withoutSdkLogging(new KMSClient({ region: configuration.region })),
);
