/**
 * Path and query parameters: strings on the wire, domain values once parsed (`draft=false` becomes
 * false, `pageSize=20` becomes 20). The reference shows their wire form.
 */
import * as z from 'zod/mini';
import { countParam, uuidSchema } from '#shared/domain/schema-parts.ts';

/** `true` or `false`, as a boolean. */
export const booleanParam = z.pipe(
  z.enum(['true', 'false']),
  z.transform((value) => value === 'true'),
);

/** `true` or `false`; absent means `fallback`. */
export const flagParam = (fallback: boolean) =>
  z.pipe(
    z.optional(z.enum(['true', 'false'])),
    z.transform((value) => (value === undefined ? fallback : value === 'true')),
  );

/** A positive integer up to `max`. */
export const positiveIntParam = (max: number) => countParam(1, max);

/**
 * An ISO 8601 time as its milliseconds, and whether it was written with finer digits that are not zero.
 * The fraction is cut by hand: V8 misreads fractions of ten digits or more (`.0369999999` as `.370`).
 */
function toMilliseconds(s: string): { ms: number; finer: boolean } {
  const finer = /\.\d{3}(\d+)/.exec(s)?.[1] ?? '';
  return { ms: new Date(s.replace(/(\.\d{3})\d+/, '$1')).getTime(), finer: /[1-9]/.test(finer) };
}

/** An ISO 8601 time with an offset, as UTC with milliseconds (`since`: the changes of its millisecond on). */
export const timestampParam = z.pipe(
  z.iso.datetime({ offset: true }),
  z.transform((s) => new Date(toMilliseconds(s).ms).toISOString()),
);

/**
 * A lower bound on times kept to the millisecond (`modifiedSince`: at or after it), as UTC with
 * milliseconds: a bound written with finer digits rounds up, so nothing earlier than it passes.
 */
export const lowerBoundTimeParam = z.pipe(
  z.iso.datetime({ offset: true }),
  z.transform((s) => {
    const { ms, finer } = toMilliseconds(s);
    return new Date(finer ? ms + 1 : ms).toISOString();
  }),
);

/** An opaque position from a page's nextCursor, passed back unchanged. */
export const cursorParam = z.string().check(z.minLength(1), z.maxLength(2000));

/** Cursor paging of collections read a page at a time (users, sessions, grants), as /list walks. */
export const cursorQuerySchema = z.strictObject({
  pageSize: z.optional(positiveIntParam(1000)),
  cursor: z.optional(cursorParam),
});

/** Page-number paging of small collections (a user's actions). */
export const pageQuerySchema = z.strictObject({
  pageSize: z.optional(positiveIntParam(1000)),
  currentPage: z.optional(positiveIntParam(1_000_000)),
});

export const nodePathSchema = z.strictObject({ nodeId: uuidSchema });
/** `draft` (default true) reads the working copy; false, the published version. */
export const draftQuerySchema = z.strictObject({ draft: flagParam(true) });
