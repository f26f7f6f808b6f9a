/** Conditional writes: a failed condition becomes the domain error the caller names, nothing else does. */
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';

/** The indexes of the transaction's actions whose condition failed (none for any other error). */
export function failedConditions(error: unknown): number[] {
  if (!(error instanceof TransactionCanceledException)) return [];
  return (error.CancellationReasons ?? []).flatMap((reason, i) =>
    reason.Code === 'ConditionalCheckFailed' ? [i] : [],
  );
}

/**
 * Waits for a conditional write (a single item, or a transaction); when a condition failed, throws what
 * `onFailed` returns for it (given the failed actions' indexes for a transaction), or the error as is
 * when `onFailed` returns nothing.
 */
export async function conditionally<T>(
  write: Promise<T>,
  onFailed: (failedActions: number[]) => Error | undefined,
): Promise<T> {
  try {
    return await write;
  } catch (error) {
    const failed = error instanceof ConditionalCheckFailedException ? [0] : failedConditions(error);
    throw (failed.length > 0 && onFailed(failed)) || error;
  }
}

/** Waits for a conditional write: true when it was written, false when its condition did not hold. */
export async function writtenIfHeld(write: Promise<unknown>): Promise<boolean> {
  try {
    await write;
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/**
 * Waits for a conditional write that returns its item (ReturnValues): the item as `fromItem` reads it,
 * or null when its condition did not hold.
 */
export async function updatedIfHeld<T>(
  write: Promise<{ Attributes?: Record<string, unknown> }>,
  fromItem: (item: Record<string, unknown>) => T,
): Promise<T | null> {
  try {
    const { Attributes } = await write;
    return Attributes ? fromItem(Attributes) : null;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return null;
    throw error;
  }
}
