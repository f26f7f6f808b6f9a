/**
 * The one retry policy of every DynamoDB call, applied by the client itself (shared/clients/dynamodb.ts),
 * so no repository handles faults on its own:
 * - a transaction cancelled only because it met another one on an item (TransactionConflict) or was
 *   throttled wrote nothing: it is tried again with jittered exponential backoff, with the same
 *   ClientRequestToken, up to CONFLICT_ATTEMPTS times;
 * - what is still retryable after that, and throttling or service faults after the SDK's own retries,
 *   become a 503 with Retry-After (ServiceUnavailableError): the client may simply retry;
 * - everything else (a failed condition, a validation error) goes to the caller unchanged.
 */
import {
  InternalServerError,
  ProvisionedThroughputExceededException,
  RequestLimitExceeded,
  ThrottlingException,
  TransactionCanceledException,
  TransactionConflictException,
  TransactionInProgressException,
} from '@aws-sdk/client-dynamodb';
import { ServiceUnavailableError } from '#shared/domain/errors.ts';

export const CONFLICT_ATTEMPTS = 6;
const BASE_DELAY_MS = 20;

const RETRYABLE_CANCELLATIONS = new Set([
  'TransactionConflict',
  'ThrottlingError',
  'ProvisionedThroughputExceeded',
]);

/** A transaction that failed for nothing of its own making: no condition failed, nothing was written. */
function cancelledByContention(error: unknown): boolean {
  if (!(error instanceof TransactionCanceledException)) return false;
  const codes = (error.CancellationReasons ?? []).map((reason) => reason.Code ?? 'None');
  return (
    codes.some((code) => RETRYABLE_CANCELLATIONS.has(code)) &&
    codes.every((code) => code === 'None' || RETRYABLE_CANCELLATIONS.has(code))
  );
}

function unavailable(error: unknown): boolean {
  return (
    cancelledByContention(error) ||
    error instanceof ProvisionedThroughputExceededException ||
    error instanceof ThrottlingException ||
    error instanceof RequestLimitExceeded ||
    error instanceof TransactionConflictException ||
    error instanceof TransactionInProgressException ||
    error instanceof InternalServerError ||
    (error instanceof Error && ['TimeoutError', 'NetworkingError'].includes(error.name))
  );
}

/** Full jitter: a random wait up to an exponentially growing cap. */
export const backoffMs = (attempt: number) => Math.random() * BASE_DELAY_MS * 2 ** attempt;

/** Runs one DynamoDB call under the policy. */
export async function underRetryPolicy<T>(send: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await send();
    } catch (error) {
      if (cancelledByContention(error) && attempt < CONFLICT_ATTEMPTS) {
        await new Promise((resolve) => setTimeout(resolve, backoffMs(attempt)));
        continue;
      }
      if (unavailable(error)) {
        throw new ServiceUnavailableError(
          'The data store is busy or another request changed the same objects; retry',
        );
      }
      throw error;
    }
  }
}
