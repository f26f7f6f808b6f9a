/** The lagging index catches up with the table once the lag has passed, item by item. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IndexLag } from '#infra/local/index-lag.ts';
import type { KeySchemas } from '#infra/local/key-schemas.ts';

const keys = {
  indexShape: async () => ({ keyAttributes: ['group'], projects: () => true }),
  keyOf: async (_table: string, item: Record<string, unknown>) => ({ id: item.id }),
  itemId: (table: string, key: unknown) => `${table}|${JSON.stringify(key)}`,
} as unknown as KeySchemas;

const item = (id: string, label: string) => ({ id: { S: id }, group: { S: 'g' }, label: { S: label } });
const idOf = (id: string) => `t|${JSON.stringify({ id: { S: id } })}`;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-11-23T10:00:00.000Z'));
});
afterEach(() => vi.useRealTimers());

describe('IndexLag', () => {
  it('shows the image from before each write until the lag has passed since that write', async () => {
    const lag = new IndexLag(1000, keys);
    lag.written([idOf('a')], [item('a', 'v1')]);
    vi.advanceTimersByTime(600);
    lag.written([idOf('a'), idOf('b')], [item('a', 'v2'), undefined]);
    const now = [item('a', 'v3'), item('b', 'v1')];

    expect(await lag.lagged('t', 'i', now, false)).toEqual([item('a', 'v1')]);
    vi.advanceTimersByTime(500);
    expect(await lag.lagged('t', 'i', now, false)).toEqual([item('a', 'v2')]);
    vi.advanceTimersByTime(600);
    expect(await lag.lagged('t', 'i', now, false)).toEqual(now);
  });

  it('turned off, answers the table as it is and forgets what it held back', async () => {
    const lag = new IndexLag(1000, keys);
    lag.written([idOf('a')], [undefined]);
    lag.lag = 0;
    expect(lag.enabled).toBe(false);
    lag.lag = 1000;
    expect(await lag.lagged('t', 'i', [item('a', 'v1')], false)).toEqual([item('a', 'v1')]);
  });
});
