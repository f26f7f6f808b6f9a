/**
 * The Range header of a download (RFC 9110 §14): one byte range, as `a-b`, `a-` or `-n`. Several ranges,
 * another unit or a malformed header answer the whole file (the RFC lets a server ignore Range); a range
 * that starts beyond the file is unsatisfiable.
 */
import { RangeNotSatisfiableError } from './errors.ts';

export interface ByteRange {
  start: number;
  /** Inclusive. */
  end: number;
}

/** The range to serve of a file of `size` bytes, or null for the whole file. */
export function byteRangeOf(header: string | undefined, size: number): ByteRange | null {
  if (!header) return null;
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!match) return null;
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return null;
  if (first === '') {
    // The last n bytes.
    const length = Number(last);
    if (length === 0 || size === 0) throw new RangeNotSatisfiableError(header, size);
    return { start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (last !== '' && Number(last) < start) return null; // invalid: ignored, as the RFC allows
  if (start >= size) throw new RangeNotSatisfiableError(header, size);
  return { start, end };
}
