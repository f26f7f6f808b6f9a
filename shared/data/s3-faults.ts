/** S3's own faults, after the SDK's retries, are the client's to retry: a 503 with Retry-After, never a 500. */
import { unlessUnavailable as unlessServiceUnavailable } from './service-faults.ts';

export function unlessUnavailable<T>(call: Promise<T>): Promise<T> {
  return unlessServiceUnavailable(call, 'The file store is busy; retry');
}
