/** S3's own faults, after the SDK's retries, are the client's to retry: a 503 with Retry-After, never a 500. */
import { ServiceUnavailableError } from '#shared/domain/errors.ts';

export function isS3Unavailable(error: unknown): boolean {
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

export async function unlessUnavailable<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (isS3Unavailable(error)) throw new ServiceUnavailableError('The file store is busy; retry');
    throw error;
  }
}
