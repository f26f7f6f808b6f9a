/**
 * The order DynamoDB gives string sort keys: by their UTF-8 bytes, which is Unicode code point order.
 * JavaScript's `<` compares UTF-16 code units instead, and the two disagree between U+E000–U+FFFF and the
 * characters above U+FFFF (stored as surrogates, D800–DFFF): `ｚ` (U+FF5A) sorts before `😀` (U+1F600)
 * in DynamoDB, after it in `<`. Whatever merges or compares keys DynamoDB sorted must use this order.
 */

/** A code unit moved so that unit order is code point order: surrogates above every other unit. */
const inCodePointOrder = (unit: number) =>
  unit < 0xd800 ? unit : unit >= 0xe000 ? unit - 0x800 : unit + 0x2000;

/** Negative when `a` sorts before `b` as DynamoDB sorts keys, positive after, 0 when equal. */
export function compareKeys(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return inCodePointOrder(x) - inCodePointOrder(y);
  }
  return a.length - b.length;
}
