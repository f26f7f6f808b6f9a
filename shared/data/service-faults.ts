import { ServiceUnavailableError } from '#shared/domain/errors.ts';

/**
 * An AWS service's own fault, after the SDK's retries (throttling, a 5xx, a timeout, a dropped
 * connection): the caller's request is fine and may simply be sent again, so it is a 503 with
 * Retry-After, never a 500.
 */
export function isServiceUnavailable(error: unknown): boolean {
  const { $metadata, $retryable, name } = (error ?? {}) as {
    $metadata?: { httpStatusCode?: number };
    $retryable?: unknown;
    name?: string;
  };
  return (
    Boolean($retryable) ||
    ($metadata?.httpStatusCode ?? 0) >= 500 ||
    name === 'TimeoutError' ||
    name === 'NetworkingError' ||
    name === 'SlowDown'
  );
}

/** The call's result; its service's own fault becomes a 503 saying `busy`. */
export async function unlessUnavailable<T>(call: Promise<T>, busy: string): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (isServiceUnavailable(error)) throw new ServiceUnavailableError(busy);
    throw error;
  }
}
