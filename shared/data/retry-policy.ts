/**
 * The one retry policy of every DynamoDB call, applied by the client itself (shared/clients/dynamodb.ts),
 * so no repository handles faults on its own:
 * - a transaction cancelled only because it met another one on an item (TransactionConflict) or was
 *   throttled, and a plain write that met a running transaction (TransactionConflictException), wrote
 *   nothing: they are tried again with jittered exponential backoff (capped at half a second), for up to
 *   CONFLICT_BUDGET_MS;
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

/** How long a write that keeps meeting others is tried again: well within a function's 29 s. */
export const CONFLICT_BUDGET_MS = 10_000;
const BASE_DELAY_MS = 10;
const MAX_DELAY_MS = 500;

const RETRYABLE_CANCELLATIONS = new Set([
  'TransactionConflict',
  'ThrottlingError',
  'ProvisionedThroughputExceeded',
]);

/**
 * A write that failed for nothing of its own making, and wrote nothing: a transaction cancelled only by
 * contention or throttling (no condition failed), or a plain write that met a running transaction.
 */
function cancelledByContention(error: unknown): boolean {
  if (error instanceof TransactionConflictException) return true;
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
export const backoffMs = (attempt: number) =>
  Math.random() * Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** attempt);

/** Runs one DynamoDB call under the policy. */
export async function underRetryPolicy<T>(send: () => Promise<T>): Promise<T> {
  const started = Date.now();
  for (let attempt = 1; ; attempt++) {
    try {
      return await send();
    } catch (error) {
      if (cancelledByContention(error) && Date.now() - started < CONFLICT_BUDGET_MS) {
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
