/**
 * What every JSON request body must be before any schema sees it, so that whatever a client sends is
 * either kept exactly as sent or refused with a 400 naming the field (never a 500, never silently changed):
 * - UTF-8 (RFC 8259), and strings and keys well-formed Unicode (no lone surrogates);
 * - at most MAX_JSON_DEPTH levels of objects and arrays (DynamoDB stores at most 32);
 * - no `__proto__`, `constructor` or `prototype` keys anywhere: JavaScript gives them a meaning of their
 *   own, so they could not be kept as plain data through every layer; they are refused, never dropped;
 * - numbers that DynamoDB stores exactly as written: finite, with a magnitude from 1e-130 to below 1e126,
 *   and exact in a double, the way JSON numbers are read (integers within ±(2^53 − 1); a number whose
 *   digits a double cannot hold, such as a 20-digit integer or 0.12345678901234567, is refused, and so is
 *   one too small to be anything but 0, such as 1e-400);
 * - each key at most once in an object (JSON.parse would keep the last and drop the others).
 */
import { isSafeNumber, LosslessNumber, parse as parseLossless } from 'lossless-json';
import { type FieldError, ValidationError } from '#shared/domain/errors.ts';
import { isWellFormedText } from '#shared/domain/well-formed-text.ts';
import { jsonPath } from './validation.ts';

export const MAX_JSON_DEPTH = 20;
export const RESERVED_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);
/** DynamoDB's number range (its magnitude limits; 38 digits of precision are more than a double has). */
const SMALLEST_MAGNITUDE = 1e-130;
const LARGEST_MAGNITUDE = 1e126;
const MAGNITUDE_RULE = 'must be 0 or have a magnitude from 1e-130 to below 1e126';

type Path = (string | number)[];

const fieldError = (path: Path, rule: string, message: string): FieldError => ({
  in: 'body',
  path: jsonPath(path),
  rule,
  message,
});

function numberProblem(value: number): string | undefined {
  if (!Number.isFinite(value)) return 'is too large a number';
  const magnitude = Math.abs(value);
  if (magnitude !== 0 && (magnitude < SMALLEST_MAGNITUDE || magnitude >= LARGEST_MAGNITUDE)) {
    return MAGNITUDE_RULE;
  }
  if (Number.isInteger(value) && !Number.isSafeInteger(value)) {
    return 'must be an integer from -(2^53 - 1) to 2^53 - 1 (send larger ones as strings)';
  }
  return undefined;
}

/** Walks a parsed body; stops at the first MAX_JSON_DEPTH + 1 level, so the walk itself stays shallow. */
function check(value: unknown, path: Path, depth: number, errors: FieldError[]): void {
  if (errors.length >= 20) return;
  if (typeof value === 'string') {
    if (!isWellFormedText(value)) errors.push(fieldError(path, 'unicode', 'must be well-formed Unicode'));
    return;
  }
  if (typeof value === 'number') {
    const problem = numberProblem(value);
    if (problem) errors.push(fieldError(path, 'number', problem));
    return;
  }
  if (value === null || typeof value !== 'object') return;
  if (depth >= MAX_JSON_DEPTH) {
    errors.push(fieldError(path, 'max_depth', `nests deeper than ${MAX_JSON_DEPTH} levels`));
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      check(item, [...path, i], depth + 1, errors);
    });
    return;
  }
  for (const [key, item] of Object.entries(value)) {
    if (RESERVED_KEYS.has(key)) {
      errors.push(fieldError([...path, key], 'reserved_key', 'is a reserved name and cannot be a key'));
    } else if (!isWellFormedText(key)) {
      errors.push(fieldError(path, 'unicode', 'has a key that is not well-formed Unicode'));
    } else {
      check(item, [...path, key], depth + 1, errors);
    }
  }
}

/** The value a repeated key is given on the lossless parse, so the walk below can name where it was. */
class RepeatedKey {}

/** A number written with a digit other than 0 before any exponent, read as 0 (1e-400): it underflowed. */
const underflows = (text: string) => Number(text) === 0 && /[1-9]/.test(text.split(/[eE]/)[0] ?? '');

/**
 * What only the text can tell (found on a lossless parse of it): keys repeated in one object (JSON.parse
 * keeps the last, so the others would be dropped silently) and numbers that a double cannot hold as
 * written (too many digits, or too small and read as 0).
 */
function lostInParsing(value: unknown, path: Path, errors: FieldError[]): void {
  if (errors.length >= 20) return;
  if (value instanceof RepeatedKey) {
    errors.push(
      fieldError(path, 'repeated_key', 'is given more than once in its object; send each key once'),
    );
  } else if (value instanceof LosslessNumber) {
    if (underflows(value.value)) errors.push(fieldError(path, 'number', MAGNITUDE_RULE));
    else if (!isSafeNumber(value.value)) {
      errors.push(
        fieldError(path, 'number', `has more digits than can be kept exactly (${value.value.slice(0, 40)})`),
      );
    }
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => {
      lostInParsing(item, [...path, i], errors);
    });
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) lostInParsing(item, [...path, key], errors);
  }
}

/**
 * Parses a JSON request body and checks it against the rules above.
 * @throws SyntaxError when the text is not JSON (the caller answers MALFORMED_JSON)
 * @throws ValidationError naming every field that breaks a rule
 */
export function parseJsonInput(text: string): unknown {
  const value: unknown = JSON.parse(text);
  const errors: FieldError[] = [];
  check(value, [], 0, errors);
  // The depth check above bounds the recursion of the lossless parser (a few microseconds for a
  // typical body, a few milliseconds for the largest).
  if (errors.length === 0) {
    const lossless = parseLossless(text, null, { onDuplicateKey: () => new RepeatedKey() });
    lostInParsing(lossless, [], errors);
  }
  if (errors.length > 0) throw new ValidationError(errors);
  return value;
}
