/** RFC 9457 problem+json responses: the one mapping from errors to HTTP. */
import { DomainError } from '#shared/domain/errors.ts';
import type { HttpResult } from './types.ts';

const PROBLEM_BASE = 'https://content-repository.dev/problems/';

export const problemTypeUri = (code: string) => PROBLEM_BASE + code.toLowerCase().replace(/_/g, '-');

export function problemResponse(error: unknown, requestId: string, instance: string): HttpResult {
  if (!(error instanceof DomainError)) {
    // A bug: the details go to the log (by the caller), the client gets the request id to quote.
    return problemResult(
      500,
      {},
      {
        type: problemTypeUri('INTERNAL_ERROR'),
        title: 'Internal Server Error',
        status: 500,
        detail: 'An unexpected error occurred. Quote the requestId when you report it.',
        code: 'INTERNAL_ERROR',
        instance,
        requestId,
      },
    );
  }
  const errors =
    'errors' in error && Array.isArray(error.errors) && error.errors.length > 0 ? error.errors : undefined;
  return problemResult(error.status, error.headers, {
    type: problemTypeUri(error.code),
    title: error.title,
    status: error.status,
    detail: error.message,
    code: error.code,
    instance,
    requestId,
    ...(errors ? { errors } : {}),
    ...error.extensions,
  });
}

function problemResult(
  status: number,
  headers: Record<string, string>,
  body: Record<string, unknown>,
): HttpResult {
  return {
    statusCode: status,
    headers: { 'content-type': 'application/problem+json', 'cache-control': 'no-store', ...headers },
    body: JSON.stringify(body),
  };
}
