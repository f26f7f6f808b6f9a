import { describe, expect, it } from 'vitest';
import { ifRangeHolds } from '#shared/domain/byte-range.ts';

describe('If-Range (RFC 9110 §13.1.5)', () => {
  const etag = '"abc123"';

  it('holds without If-Range, and for the current strong ETag exactly', () => {
    expect(ifRangeHolds(undefined, { etag })).toBe(true);
    expect(ifRangeHolds('"abc123"', { etag })).toBe(true);
    expect(ifRangeHolds(' "abc123" ', { etag })).toBe(true);
  });

  it('does not hold for another tag, a weak tag, a list or garbage', () => {
    for (const value of ['"nope"', 'W/"abc123"', '"abc123", "x"', 'abc123', '', '*']) {
      expect(ifRangeHolds(value, { etag }), value).toBe(false);
    }
    // A weak current ETag never matches (strong comparison).
    expect(ifRangeHolds('W/"abc123"', { etag: 'W/"abc123"' })).toBe(false);
  });

  it('compares an HTTP-date to the last modification, and never matches without one', () => {
    const date = 'Sun, 06 Nov 1994 08:49:37 GMT';
    expect(ifRangeHolds(date, { etag })).toBe(false);
    const lastModified = new Date('1994-11-06T08:49:37.250Z');
    expect(ifRangeHolds(date, { etag, lastModified })).toBe(true);
    expect(ifRangeHolds('Sun, 06 Nov 1994 08:49:38 GMT', { etag, lastModified })).toBe(false);
  });
});
