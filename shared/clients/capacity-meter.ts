/**
 * Counts the DynamoDB capacity one request consumes (ReturnConsumedCapacity costs nothing), and its
 * DynamoDB calls: how many, and how many of them follow one another (round trips on the request's
 * critical path; calls that overlap in time count once). The request log reports both, which is how
 * operators and the benchmark see what an operation costs.
 */
import { scopeSlot } from '#shared/config/scope-slots.ts';

export interface ConsumedCapacity {
  readCapacityUnits: number;
  writeCapacityUnits: number;
}

interface Meter extends ConsumedCapacity {
  /** When each DynamoDB call started and ended (performance.now()). */
  calls: { start: number; end: number }[];
  /** An enclosing meter (a benchmark around a handler) sees what the inner one counts too. */
  outer: Meter | undefined;
}

const meter = scopeSlot<Meter>('capacity meter');

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
  const store: Meter = { readCapacityUnits: 0, writeCapacityUnits: 0, calls: [], outer: meter.get() };
  const result = await meter.run(store, fn);
  return {
    result,
    consumed: { readCapacityUnits: store.readCapacityUnits, writeCapacityUnits: store.writeCapacityUnits },
  };
}

/** The meter of the request in progress, if any. */
export function currentConsumption(): ConsumedCapacity | undefined {
  return meter.get();
}

/** One DynamoDB call of the request in progress took place from `start` to `end`. */
export function recordCall(start: number, end: number): void {
  for (let store = meter.get(); store; store = store.outer) store.calls.push({ start, end });
}

export interface CallCounts {
  calls: number;
  /** The longest run of calls each starting after the one before ended. */
  roundTrips: number;
}

/** The DynamoDB calls of the request in progress. */
export function currentCalls(): CallCounts {
  return callCounts(meter.get()?.calls ?? []);
}

/** The longest chain of calls one after another: the most calls no two of which overlap. */
export function callCounts(calls: readonly { start: number; end: number }[]): CallCounts {
  let roundTrips = 0;
  let lastEnd = Number.NEGATIVE_INFINITY;
  for (const call of [...calls].sort((a, b) => a.end - b.end)) {
    if (call.start >= lastEnd) {
      roundTrips++;
      lastEnd = call.end;
    }
  }
  return { calls: calls.length, roundTrips };
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
  for (let store = meter.get(); store; store = store.outer) {
    if (READS.has(commandName)) store.readCapacityUnits += units;
    else if (WRITES.has(commandName)) store.writeCapacityUnits += units;
  }
}
