import { describe, expect, it } from 'vitest';
import { currentConsumption, metered, recordConsumedCapacity } from '#shared/clients/capacity-meter.ts';

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
