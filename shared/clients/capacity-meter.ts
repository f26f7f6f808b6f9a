/**
 * Counts the DynamoDB capacity one request consumes (ReturnConsumedCapacity costs nothing). The
 * request log reports it, which is how operators and the benchmark see what an operation costs.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export interface ConsumedCapacity {
  readCapacityUnits: number;
  writeCapacityUnits: number;
}

interface Meter extends ConsumedCapacity {
  /** An enclosing meter (a benchmark around a handler) sees what the inner one counts too. */
  outer: Meter | undefined;
}

const meter = new AsyncLocalStorage<Meter>();

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
  const store: Meter = { readCapacityUnits: 0, writeCapacityUnits: 0, outer: meter.getStore() };
  const result = await meter.run(store, fn);
  return {
    result,
    consumed: { readCapacityUnits: store.readCapacityUnits, writeCapacityUnits: store.writeCapacityUnits },
  };
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
  if (!reported) return;
  const units = (Array.isArray(reported) ? reported : [reported]).reduce(
    (sum, c) => sum + (c.CapacityUnits ?? 0),
    0,
  );
  for (let store = meter.getStore(); store; store = store.outer) {
    if (READS.has(commandName)) store.readCapacityUnits += units;
    else if (WRITES.has(commandName)) store.writeCapacityUnits += units;
  }
}
