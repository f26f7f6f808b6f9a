import { describe, expect, it } from 'vitest';
import { ValidationError } from '#shared/domain/errors.ts';
import { decodeCursor, encodeCursor, queryFingerprint } from '#shared/domain/list-cursor.ts';

const fingerprint = queryFingerprint({ path: '', sortKey: 'name', order: 'ASC' });

describe('list cursor', () => {
  it('carries where the page ended and which page follows', () => {
    const cursor = encodeCursor({ after: 'policy\u0001ID', page: 3 }, fingerprint);
    expect(cursor).toMatch(/^[\w-]+$/);
    expect(decodeCursor(cursor, fingerprint)).toEqual({ after: 'policy\u0001ID', page: 3 });
  });

  it('refuses a cursor of another query, and anything it did not issue, as a 400 on cursor', () => {
    const other = queryFingerprint({ path: '', sortKey: 'name', order: 'DESC' });
    const cursor = encodeCursor({ after: 'x', page: 2 }, fingerprint);
    for (const [value, expected] of [
      [cursor, other],
      ['not-a-cursor', fingerprint],
      [Buffer.from('{"a":1,"p":2,"f":"x"}').toString('base64url'), fingerprint],
      // A lone surrogate, which no UTF-8 store (the index it would be handed to) can carry.
      [encodeCursor({ after: 'policy\ud800', page: 2 }, fingerprint), fingerprint],
    ] as const) {
      const error = (() => {
        try {
          decodeCursor(value, expected);
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).details.errors?.[0]).toMatchObject({ in: 'query', path: '$.cursor' });
    }
  });
});
