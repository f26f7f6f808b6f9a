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

/**
 * Takes the SDK's logger middleware off a client. It copies every input and output through the
 * operation's schema (to mask sensitive members) for its logger before the logger is asked whether it
 * logs at all; with the default logger, which never does, that walk of every answer is pure cost (a
 * list page's answers: about 3% of its CPU). Our own request log carries what operators need.
 */
export function withoutSdkLogging<T extends { middlewareStack: { remove(name: string): boolean } }>(
  client: T,
): T {
  client.middlewareStack.remove('loggerMiddleware');
  return client;
}
