import {
  InternalServerError,
  ProvisionedThroughputExceededException,
  RequestLimitExceeded,
  ThrottlingException,
  TransactionCanceledException,
  TransactionConflictException,
} from '@aws-sdk/client-dynamodb';
import { ServiceUnavailableError } from '#shared/domain/errors.ts';

const RETRYABLE_CANCELLATIONS = new Set([
  'TransactionConflict',
  'ThrottlingError',
  'ProvisionedThroughputExceeded',
]);

/**
 * DynamoDB faults a client can simply retry become a 503 with Retry-After; everything else is
 * rethrown unchanged (and, if nobody handles it, is a 500: a bug).
 */
export function retryableAsUnavailable(error: unknown): never {
  if (
    error instanceof ProvisionedThroughputExceededException ||
    error instanceof ThrottlingException ||
    error instanceof RequestLimitExceeded ||
    error instanceof TransactionConflictException ||
    error instanceof InternalServerError
  ) {
    throw new ServiceUnavailableError('The data store is busy; retry the request');
  }
  if (
    error instanceof TransactionCanceledException &&
    error.CancellationReasons?.some((r) => r.Code && RETRYABLE_CANCELLATIONS.has(r.Code))
  ) {
    throw new ServiceUnavailableError(
      'Another request changed the same objects at the same time; retry the request',
    );
  }
  throw error;
}

/** True when a transaction was cancelled because the condition of its action at `index` failed. */
export function conditionFailedAt(error: unknown, index: number): boolean {
  return (
    error instanceof TransactionCanceledException &&
    error.CancellationReasons?.[index]?.Code === 'ConditionalCheckFailed'
  );
}
