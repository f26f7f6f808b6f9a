/** compareKeys sorts strings as DynamoDB sorts keys: by their UTF-8 bytes. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareKeys } from '#shared/data/key-order.ts';

const byUtf8 = (a: string, b: string) => Math.sign(Buffer.compare(Buffer.from(a), Buffer.from(b)));

describe('compareKeys', () => {
  it('puts U+E000–U+FFFF before the characters above U+FFFF, as UTF-8 does', () => {
    expect(compareKeys('ｚ', '😀')).toBeLessThan(0);
    expect(compareKeys('\uE000', '\u{10000}')).toBeLessThan(0);
    expect(compareKeys('\uD7FF', '\u{10000}')).toBeLessThan(0);
    expect(compareKeys('ab', 'abc')).toBeLessThan(0);
    expect(compareKeys('same', 'same')).toBe(0);
  });

  it('agrees with the UTF-8 byte order on any well-formed strings', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }), (a, b) => {
        expect(Math.sign(compareKeys(a, b))).toBe(byUtf8(a, b));
      }),
      { numRuns: 2000 },
    );
  });
});
