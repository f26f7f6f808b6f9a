import type middy from '@middy/core';
import { type FieldError, ValidationError } from '#shared/domain/errors.ts';
import type { ParsedEvent } from '../operation.ts';
import { percentDecoded, queryComponentDecoded } from '../percent-encoding.ts';
import type { HttpResult } from '../types.ts';
import { jsonPath } from '../validation.ts';

const malformed = (location: 'path' | 'query', path: string): FieldError => ({
  in: location,
  path,
  rule: 'percent_encoding',
  message: 'is not well-formed percent-encoded UTF-8',
});

/** Problems of the raw query string: each name and value must decode. */
function queryErrors(rawQueryString: string): FieldError[] {
  const errors: FieldError[] = [];
  for (const pair of rawQueryString.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const name = queryComponentDecoded(eq < 0 ? pair : pair.slice(0, eq));
    if (name === undefined) errors.push(malformed('query', '$'));
    else if (eq >= 0 && queryComponentDecoded(pair.slice(eq + 1)) === undefined) {
      errors.push(malformed('query', jsonPath([name])));
    }
  }
  return errors;
}

/**
 * The request target as sent (path and query string) must be well-formed percent-encoded UTF-8: anything
 * else is a 400 naming the part, decided before any parameter is read.
 */
export function wellFormedTarget(): middy.MiddlewareObj<ParsedEvent, HttpResult> {
  return {
    before: ({ event }) => {
      const errors = [
        ...(percentDecoded(event.rawPath ?? '') === undefined ? [malformed('path', '$')] : []),
        ...queryErrors(event.rawQueryString ?? ''),
      ];
      if (errors.length > 0) throw new ValidationError(errors);
    },
  };
}
