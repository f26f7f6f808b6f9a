/**
 * The opaque list cursor: where the last page ended (its last sort value), which page comes next, and a
 * fingerprint of the query it belongs to, so a cursor cannot be replayed against another list, sort order
 * or filter. Resuming after a sort value (not an offset) means objects created or deleted during a walk
 * never shift it: every object that exists for the whole walk is returned exactly once.
 */
import { createHash } from 'node:crypto';
import { ValidationError } from './errors.ts';
import { isWellFormedText } from './well-formed-text.ts';

export interface ListCursor {
  /** Sort value of the last object returned. */
  after: string;
  /** The page number the cursor leads to. */
  page: number;
  /** How many objects the pages before it returned, where pages can come back short (filtered reads). */
  seen?: number;
}

/** What identifies a list query apart from its paging. */
export function queryFingerprint(parts: Record<string, unknown>): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 16);
}

export function encodeCursor(cursor: ListCursor, fingerprint: string): string {
  const seen = cursor.seen === undefined ? {} : { s: cursor.seen };
  return Buffer.from(JSON.stringify({ a: cursor.after, p: cursor.page, ...seen, f: fingerprint })).toString(
    'base64url',
  );
}

const invalid = (message: string) =>
  new ValidationError([{ in: 'query', path: '$.cursor', rule: 'cursor', message }]);

export function decodeCursor(value: string, fingerprint: string): ListCursor {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
  } catch {
    throw invalid('is not a cursor this service issued; pass nextCursor from a list page unchanged');
  }
  const { a, p, s, f } = (decoded ?? {}) as { a?: unknown; p?: unknown; s?: unknown; f?: unknown };
  // A sort value is a non-empty index key of at most 1024 bytes.
  const sortValue =
    typeof a === 'string' && a.length > 0 && isWellFormedText(a) && Buffer.byteLength(a) <= 1024;
  const seen = s === undefined || (Number.isSafeInteger(s) && (s as number) >= 0);
  if (!sortValue || !Number.isSafeInteger(p) || (p as number) < 2 || !seen || typeof f !== 'string') {
    throw invalid('is not a cursor this service issued; pass nextCursor from a list page unchanged');
  }
  if (f !== fingerprint) {
    throw invalid(
      'belongs to another list, sort order or filter; repeat that query or start without a cursor',
    );
  }
  return { after: a, page: p as number, ...(s === undefined ? {} : { seen: s as number }) };
}
