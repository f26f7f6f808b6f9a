import type { ServiceConfig } from '#shared/config/index.ts';

/** s3rver accepts only its own default key pair; dynalite accepts any. */
export const EMBEDDED_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/**
 * Settings every AWS client shares. On the embedded stack an endpoint is configured and requests go
 * to dynalite / s3rver with throwaway credentials; in Lambda the default credential chain applies.
 */
export function awsClientSettings(configuration: ServiceConfig, endpoint: string | undefined) {
  const { region } = configuration;
  if (!endpoint) return { region };
  return { region, endpoint, credentials: EMBEDDED_CREDENTIALS };
}
