import type middy from '@middy/core';
import type { ParsedEvent } from '../operation.ts';
import { problemResponse } from '../problem.ts';
import type { HttpResult } from '../types.ts';

/** The one error handler: every error becomes a problem+json response (a 500 only for bugs). */
export function problemErrors(): middy.MiddlewareObj<ParsedEvent, HttpResult> {
  return {
    onError: (request) => {
      request.response = problemResponse(
        request.error,
        request.event.requestContext.requestId,
        request.event.rawPath,
      );
    },
  };
}
