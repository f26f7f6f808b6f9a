import { KMSClient } from '@aws-sdk/client-kms';
import { perConfig } from '#shared/config/index.ts';

/** KMS signs access tokens in the cloud; the embedded stack signs with a key file instead. */
export const kms = perConfig((configuration) => new KMSClient({ region: configuration.region }));
