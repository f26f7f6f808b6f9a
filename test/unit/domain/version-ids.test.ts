/** Node version ids are UUIDv7: upper case, and their key order is the order they were made in. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { newId, newVersionId, versionIdTime } from '#shared/domain/node.ts';

describe('version ids', () => {
  it('are upper-case UUIDs of version 7 carrying the millisecond they were made', () => {
    const at = Date.parse('2026-11-23T12:00:00.123Z');
    const id = newVersionId(at);
    expect(id).toMatch(/^[0-9A-F]{8}-[0-9A-F]{4}-7[0-9A-F]{3}-[89AB][0-9A-F]{3}-[0-9A-F]{12}$/);
    expect(versionIdTime(id)).toBe(at);
    expect(versionIdTime(newId())).toBeUndefined();
  });

  it('sort as strings in the order of their times', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 47 }), fc.integer({ min: 1, max: 2 ** 20 }), (at, later) => {
        expect(newVersionId(at) < newVersionId(at + later)).toBe(true);
      }),
    );
  });
});
