/**
 * Pieces the domain's schemas share. The domain describes what it stores and what the API answers with
 * zod schemas; its TypeScript types are the schemas' outputs, so a field is added in one place.
 */
import * as z from 'zod/mini';

export const nullableString = z.nullable(z.string());
/** ISO 8601 with millisecond precision and an offset or Z. */
export const timestampSchema = z.iso.datetime({ offset: true, precision: 3 });
/**
 * A calendar date YYYY-MM-DD that exists (no 2027-02-30, no 2027-02-29, no month 13): every date a request
 * carries and every date kept, so that what a write accepts is what a read of it accepts.
 */
export const calendarDateSchema = z.iso.date({
  error: 'must be a date YYYY-MM-DD that exists on the calendar',
});
export const countSchema = z.int().check(z.minimum(0));

/**
 * A count as a query parameter: decimal digits, no sign, no leading zero, at least `min` and at most `max`;
 * a number once parsed. A value that is not a count breaks that rule alone, not also the maximum.
 */
export const countParam = (min: 0 | 1, max: number = Number.MAX_SAFE_INTEGER) =>
  z.pipe(
    z.string().check(
      min === 1
        ? z.regex(/^[1-9]\d*$/, 'must be a positive integer')
        : z.regex(/^(0|[1-9]\d*)$/, 'must be a non-negative integer'),
      z.refine((s) => !/^\d+$/.test(s) || Number(s) <= max, {
        message: `must be at most ${max}`,
        params: { rule: 'maximum' },
      }),
    ),
    z.transform(Number),
  );

/**
 * C0 control characters, DEL and the C1 controls, but tab, line feed and carriage return (a diagram's
 * labels break lines).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this pattern's job.
const CONTROL_CHARACTER = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
const CONTROL_CHARACTERS = new RegExp(CONTROL_CHARACTER.source, 'g');

/**
 * A name from elsewhere (an imported file) with each control character objectNameSchema refuses made a
 * space: a vertical tab or an escape between two words still parts them.
 */
export const withoutControlCharacters = (text: string): string => text.replace(CONTROL_CHARACTERS, ' ');

const noControlCharacters = z.refine<string>((s) => !CONTROL_CHARACTER.test(s), {
  message: 'must not hold control characters (tab and line breaks excepted)',
  params: { rule: 'control_characters' },
});

/**
 * Blank: nothing but white space and marks that show as nothing: format characters (a zero-width space),
 * the characters Unicode says to render invisibly when unsupported (Hangul fillers, variation selectors)
 * and the blank braille pattern.
 */
export const isBlankName = (name: string): boolean =>
  !/[^\s\p{Cf}\p{Default_Ignorable_Code_Point}\u2800]/u.test(name);

/**
 * An object's name: 1 to `maxLength` characters, not only blanks, and no control character (a NUL or an
 * escape in a name is never meant, and breaks what shows or exports it).
 */
export const objectNameSchema = (maxLength: number) =>
  z.string().check(
    z.maxLength(maxLength),
    z.refine((s) => !isBlankName(s), {
      message: 'must not be empty or blank',
      params: { rule: 'not_blank' },
    }),
    noControlCharacters,
  );

/** Whitespace, controls and invisible or direction marks: never in a URL as they are (RFC 3986). */
const NOT_IN_URL = /[\s\p{Cc}\p{Cf}]/u;

/**
 * A URL's text as sent: without the characters above (percent-encoded they may be). Checked before any
 * URL parse, which would trim or drop some of them silently and store another URL than was sent.
 */
export const urlTextSchema = (maxLength: number) =>
  z.string().check(
    z.minLength(1),
    z.maxLength(maxLength),
    z.refine((s) => !NOT_IN_URL.test(s), {
      message: 'must not hold spaces, control characters or invisible marks (percent-encode them)',
      params: { rule: 'url_characters' },
    }),
  );

/** Text people write and read (a phone number, a comment, a description): up to `maxLength`, no control character. */
export const readableTextSchema = (maxLength: number) =>
  z.string().check(z.maxLength(maxLength), noControlCharacters);

/**
 * Gives a schema its name in the API reference (a JSON Schema `title`, kept in zod's registry of
 * metadata): the reference lists it as a named component and refers to it wherever it is a request or
 * response body. The schema itself is unchanged, so it can still be extended or picked from.
 */
export function named<S extends z.ZodMiniType>(schema: S, title: string): S {
  z.globalRegistry.add(schema, { title });
  return schema;
}

/** A page of a collection read page by page (spec §2.4's list page, without the cursor). */
export const pageOf = <T extends z.ZodMiniType>(item: T) =>
  z.strictObject({
    totalRecords: countSchema,
    sortKey: z.string(),
    order: z.enum(['ASC', 'DESC']),
    pageSize: z.int().check(z.minimum(1)),
    currentPage: z.int().check(z.minimum(1)),
    results: z.array(item),
  });

export type Page<T> = Omit<z.output<ReturnType<typeof pageOf>>, 'results'> & { results: T[] };

const UUID = /^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$/;

/** Every identifier the service issues (nodes, users, sessions, actions) is an upper-case UUID. */
export const uuidSchema = z
  .string()
  .check(z.regex(UUID, 'must be a UUID (e.g. 0F8FAD5B-D9CB-469F-A165-70867728950E)'), z.toUpperCase());
