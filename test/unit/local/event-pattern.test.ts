/** The embedded stream filters records for a consumer as Lambda's event filtering does. */
import { describe, expect, it } from 'vitest';
import { matchesPattern } from '#infra/local/event-pattern.ts';
import { CHANGE_ITEM_FILTER } from '#shared/api/background-jobs.ts';

const record = (eventName: string, pk: string) => ({
  eventName,
  dynamodb: { Keys: { PK: { S: pk }, SK: { S: 'x' } } },
});

describe('event patterns', () => {
  it('take exactly the change feed’s new items', () => {
    expect(matchesPattern(CHANGE_ITEM_FILTER, record('INSERT', 'CHANGES#3'))).toBe(true);
    expect(matchesPattern(CHANGE_ITEM_FILTER, record('MODIFY', 'CHANGES#3'))).toBe(false);
    expect(matchesPattern(CHANGE_ITEM_FILTER, record('INSERT', 'NODE#CHANGES#3'))).toBe(false);
    expect(matchesPattern(CHANGE_ITEM_FILTER, { eventName: 'INSERT' })).toBe(false);
    expect(matchesPattern({ a: ['x', 1] }, { a: 1 })).toBe(true);
  });
});
