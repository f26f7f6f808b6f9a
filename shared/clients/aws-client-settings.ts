import type { ServiceConfig } from '#shared/config/index.ts';
import { inProcessRequestHandler } from './in-process-endpoints.ts';

/** s3rver accepts only its own default key pair; dynalite accepts any. */
export const EMBEDDED_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/**
 * Settings every AWS client shares. On the embedded stack an endpoint is configured and requests go
 * to its DynamoDB / s3rver with throwaway credentials (directly, when the endpoint is served in this
 * process: in-process-endpoints.ts); in Lambda the default credential chain applies.
 */
export function awsClientSettings(configuration: ServiceConfig, endpoint: string | undefined) {
  const { region } = configuration;
  if (!endpoint) return { region };
  const requestHandler = inProcessRequestHandler(endpoint);
  return {
    region,
    endpoint,
    credentials: EMBEDDED_CREDENTIALS,
    ...(requestHandler ? { requestHandler, ...IN_PROCESS_SHORTCUTS(endpoint) } : {}),
  };
}

/**
 * What a request that never leaves the process can do without: a signature (it proves a request's
 * origin to a service across a network; the embedded services check none), and the endpoint rules (the
 * endpoint is given). Together they were a fifth of an SDK call's CPU on the embedded stack; the
 * commands, their serialization, answers and errors stay the SDK's own.
 */
const IN_PROCESS_SHORTCUTS = (endpoint: string) => ({
  signer: { sign: async <R>(request: R): Promise<R> => request },
  endpointProvider: () => ({ url: new URL(endpoint) }),
});

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
