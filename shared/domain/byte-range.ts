/**
 * The Range header of a download (RFC 9110 §14): one byte range, as `a-b`, `a-` or `-n`. Several ranges,
 * another unit or a malformed header answer the whole file (the RFC lets a server ignore Range); a range
 * that starts beyond the file is unsatisfiable. With If-Range (§13.1.5), Range is honoured only while the
 * validator names the current representation (ifRangeHolds).
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

/** The current validators of a download: its strong ETag, and its last modification when it has one. */
export interface RangeValidators {
  etag: string;
  lastModified?: Date;
}

/**
 * If-Range (RFC 9110 §13.1.5): whether Range may be honoured. No If-Range: yes. An entity tag must equal
 * the current ETag by strong comparison (a weak tag never matches, nor does a weak current ETag); an
 * HTTP-date must equal the last modification, and never matches when there is none. Anything else (a
 * malformed validator included) does not match, so Range is ignored and the whole file answered.
 */
export function ifRangeHolds(ifRange: string | undefined, current: RangeValidators): boolean {
  if (ifRange === undefined) return true;
  const validator = ifRange.trim();
  if (validator.startsWith('"') || validator.startsWith('W/')) {
    return !validator.startsWith('W/') && !current.etag.startsWith('W/') && validator === current.etag;
  }
  if (!current.lastModified) return false;
  const date = Date.parse(validator);
  // HTTP-dates have whole seconds; an exact match only (the date is not taken as "at or after").
  return !Number.isNaN(date) && date === Math.floor(current.lastModified.getTime() / 1000) * 1000;
}
