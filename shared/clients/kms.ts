import { KMSClient } from '@aws-sdk/client-kms';
import { config } from '#shared/config/index.ts';

/** KMS signs access tokens in the cloud; the embedded stack signs with a key file instead. */
export const kms = new KMSClient({ region: config().region });
