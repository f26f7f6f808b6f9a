/**
 * Counts the DynamoDB capacity one request consumes (ReturnConsumedCapacity costs nothing). The
 * request log reports it, which is how operators and the benchmark see what an operation costs.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export interface ConsumedCapacity {
  readCapacityUnits: number;
  writeCapacityUnits: number;
}

const meter = new AsyncLocalStorage<ConsumedCapacity>();

const READS = new Set([
  'GetItemCommand',
  'BatchGetItemCommand',
  'QueryCommand',
  'ScanCommand',
  'TransactGetItemsCommand',
]);
const WRITES = new Set([
  'PutItemCommand',
  'UpdateItemCommand',
  'DeleteItemCommand',
  'BatchWriteItemCommand',
  'TransactWriteItemsCommand',
]);

/** Runs `fn` with a fresh meter and returns its result and what it consumed. */
export async function metered<T>(fn: () => Promise<T>): Promise<{ result: T; consumed: ConsumedCapacity }> {
  const consumed = { readCapacityUnits: 0, writeCapacityUnits: 0 };
  const result = await meter.run(consumed, fn);
  return { result, consumed };
}

/** The meter of the request in progress, if any. */
export function currentConsumption(): ConsumedCapacity | undefined {
  return meter.getStore();
}

export function asksForCapacity(commandName: string): boolean {
  return READS.has(commandName) || WRITES.has(commandName);
}

type Reported = { CapacityUnits?: number } | { CapacityUnits?: number }[] | undefined;

export function recordConsumedCapacity(commandName: string, reported: Reported): void {
  const store = meter.getStore();
  if (!store || !reported) return;
  const units = (Array.isArray(reported) ? reported : [reported]).reduce(
    (sum, c) => sum + (c.CapacityUnits ?? 0),
    0,
  );
  if (READS.has(commandName)) store.readCapacityUnits += units;
  else if (WRITES.has(commandName)) store.writeCapacityUnits += units;
}
