import type middy from '@middy/core';
import type * as z from 'zod/mini';
import { type FieldError, ValidationError } from '#shared/domain/errors.ts';
import type { ParsedEvent } from '../operation.ts';
import { queryNames } from '../percent-encoding.ts';
import type { HttpResult } from '../types.ts';
import { jsonPath, parseInput } from '../validation.ts';

interface Schemas {
  body: z.ZodMiniType | undefined;
  query: z.ZodMiniType | undefined;
  path: z.ZodMiniType | undefined;
  /** Query parameters that may be sent more than once (their values arrive joined with commas). */
  repeatableQuery: readonly string[];
}

/**
 * Each parameter sent more than once that may not be: the gateway would hand it on as one value joined
 * with commas, which a schema would refuse as something else (a UUID `a,b`) or, worse, take.
 */
function repeatedQueryErrors(rawQueryString: string, repeatable: readonly string[]): FieldError[] {
  const counts = new Map<string, number>();
  for (const name of queryNames(rawQueryString)) counts.set(name, (counts.get(name) ?? 0) + 1);
  return [...counts]
    .filter(([name, count]) => count > 1 && !repeatable.includes(name))
    .map(([name]) => ({
      in: 'query',
      path: jsonPath([name]),
      rule: 'repeated',
      message: 'is sent more than once; send it once',
    }));
}

/** The query's errors: its repeats, and the schema's for the rest (a repeat's own value is not judged). */
function parseQuery(schema: z.ZodMiniType, event: ParsedEvent, repeatable: readonly string[]): unknown {
  const repeated = repeatedQueryErrors(event.rawQueryString ?? '', repeatable);
  try {
    const query = parseInput(schema, event.queryInput ?? event.queryStringParameters ?? {}, 'query');
    if (repeated.length > 0) throw new ValidationError(repeated);
    return query;
  } catch (error) {
    if (repeated.length === 0 || !(error instanceof ValidationError)) throw error;
    const others = (error.details.errors ?? []).filter(
      (other) => !repeated.some((repeat) => repeat.path === other.path),
    );
    throw new ValidationError([...repeated, ...others]);
  }
}

/** Validates path parameters, query string and body against the operation's schemas. */
export function validateInput(schemas: Schemas): middy.MiddlewareObj<ParsedEvent, HttpResult> {
  return {
    before: ({ event }) => {
      event.input = {
        path: schemas.path ? parseInput(schemas.path, event.pathParameters ?? {}, 'path') : undefined,
        query: schemas.query ? parseQuery(schemas.query, event, schemas.repeatableQuery) : undefined,
        body:
          schemas.body && event.parsedBody !== undefined
            ? parseInput(schemas.body, event.parsedBody, 'body')
            : undefined,
      };
    },
  };
}
