import type middy from '@middy/core';
import type * as z from 'zod/mini';
import type { ParsedEvent } from '../operation.ts';
import type { HttpResult } from '../types.ts';
import { parseInput } from '../validation.ts';

interface Schemas {
  body: z.ZodMiniType | undefined;
  query: z.ZodMiniType | undefined;
  path: z.ZodMiniType | undefined;
}

/** Validates path parameters, query string and body against the operation's schemas. */
export function validateInput(schemas: Schemas): middy.MiddlewareObj<ParsedEvent, HttpResult> {
  return {
    before: ({ event }) => {
      event.input = {
        path: schemas.path ? parseInput(schemas.path, event.pathParameters ?? {}, 'path') : undefined,
        query: schemas.query
          ? parseInput(schemas.query, event.queryInput ?? event.queryStringParameters ?? {}, 'query')
          : undefined,
        body:
          schemas.body && event.parsedBody !== undefined
            ? parseInput(schemas.body, event.parsedBody, 'body')
            : undefined,
      };
    },
  };
}
