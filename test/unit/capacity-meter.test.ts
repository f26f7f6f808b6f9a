import { describe, expect, it } from 'vitest';
import {
  callCounts,
  currentConsumption,
  metered,
  recordConsumedCapacity,
} from '#shared/clients/capacity-meter.ts';

describe('capacity meter', () => {
  it('counts reads and writes of the calls made inside it, and lets an enclosing meter see them too', async () => {
    const outer = await metered(async () => {
      recordConsumedCapacity('GetItemCommand', { CapacityUnits: 1 });
      const inner = await metered(async () => {
        recordConsumedCapacity('BatchGetItemCommand', [{ CapacityUnits: 2 }]);
        recordConsumedCapacity('PutItemCommand', { CapacityUnits: 1 });
        return currentConsumption();
      });
      expect(inner.consumed).toEqual({ readCapacityUnits: 2, writeCapacityUnits: 1 });
    });
    expect(outer.consumed).toEqual({ readCapacityUnits: 3, writeCapacityUnits: 1 });
  });

  it('ignores calls made outside any meter', () => {
    expect(() => recordConsumedCapacity('GetItemCommand', { CapacityUnits: 1 })).not.toThrow();
    expect(currentConsumption()).toBeUndefined();
  });
});

describe('DynamoDB calls of a request', () => {
  it('counts calls that overlap in time once on the critical path, and calls one after another each', () => {
    // session read ‖ object read, then a write, then two reads side by side
    const calls = [
      { start: 0, end: 5 },
      { start: 1, end: 4 },
      { start: 6, end: 9 },
      { start: 10, end: 12 },
      { start: 10.5, end: 13 },
    ];
    expect(callCounts(calls)).toEqual({ calls: 5, roundTrips: 3 });
    expect(callCounts([])).toEqual({ calls: 0, roundTrips: 0 });
    expect(
      callCounts([
        { start: 0, end: 1 },
        { start: 1, end: 2 },
        { start: 2, end: 3 },
      ]),
    ).toEqual({
      calls: 3,
      roundTrips: 3,
    });
  });
});
