/** RFC 9457 problem+json responses: the one mapping from domain errors to HTTP. */
import * as z from 'zod/mini';
import { DomainError, type ErrorKind } from '#shared/domain/errors.ts';
import { named } from '#shared/domain/schema-parts.ts';
import type { HttpResult } from './types.ts';

/** RFC 9457 problem details; some codes add members (e.g. currentNodeVersionId, allowedMethods). */
export const problemSchema = named(
  z.looseObject({
    type: z.string(),
    title: z.string(),
    status: z.int(),
    detail: z.string(),
    code: z.string(),
    instance: z.string(),
    requestId: z.string(),
    errors: z.optional(
      z.array(
        z.strictObject({
          in: z.enum(['body', 'query', 'path', 'header']),
          path: z.string(),
          rule: z.string(),
          message: z.string(),
        }),
      ),
    ),
  }),
  'Problem',
);

const PROBLEM_BASE = 'https://content-repository.dev/problems/';

export const problemTypeUri = (code: string) => PROBLEM_BASE + code.toLowerCase().replace(/_/g, '-');

/** Each kind of domain error as HTTP: status and title. */
const HTTP_OF: Record<ErrorKind, { status: number; title: string }> = {
  invalid: { status: 400, title: 'The request is not valid' },
  unreadable: { status: 400, title: 'The request cannot be read' },
  unauthenticated: { status: 401, title: 'Authentication is required' },
  forbidden: { status: 403, title: 'Not permitted' },
  not_found: { status: 404, title: 'Not found' },
  gone: { status: 410, title: 'No longer available' },
  method_not_allowed: { status: 405, title: 'Method not allowed' },
  conflict: { status: 409, title: 'The request conflicts with the state of the object' },
  stale_precondition: { status: 412, title: 'Precondition failed' },
  too_large: { status: 413, title: 'The request body is too large' },
  range_not_satisfiable: { status: 416, title: 'The range is outside the file' },
  unsupported_media_type: { status: 415, title: 'Unsupported media type' },
  expectation_failed: { status: 417, title: 'Expectation failed' },
  too_many_requests: { status: 429, title: 'Too many requests' },
  mismatch: { status: 422, title: 'The request does not match what it refers to' },
  unavailable: { status: 503, title: 'Temporarily unavailable, retry shortly' },
};

/** The response headers a kind of error carries. */
function headersOf(error: DomainError): Record<string, string> {
  const { details } = error;
  switch (error.kind) {
    case 'unauthenticated':
      return { 'WWW-Authenticate': 'Bearer realm="content-repository"' };
    case 'method_not_allowed':
      return { Allow: ((details.extensions?.allowedMethods as string[] | undefined) ?? []).join(', ') };
    case 'stale_precondition':
      return details.currentEtag ? { ETag: details.currentEtag } : {};
    case 'range_not_satisfiable':
      return { 'Content-Range': `bytes */${String(details.extensions?.size ?? 0)}` };
    case 'unsupported_media_type':
      // RFC 7694 §3: a body refused for its content coding is answered with the codings that are taken.
      return details.acceptedCodings ? { 'Accept-Encoding': details.acceptedCodings.join(', ') } : {};
    case 'too_many_requests':
    case 'unavailable':
      return { 'Retry-After': String(details.retryAfterSeconds ?? 1) };
    default:
      return {};
  }
}

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
  const { status, title } = HTTP_OF[error.kind];
  const errors = error.details.errors?.length ? { errors: error.details.errors } : {};
  return problemResult(status, headersOf(error), {
    type: problemTypeUri(error.code),
    title,
    status,
    detail: error.message,
    code: error.code,
    instance,
    requestId,
    ...errors,
    ...error.details.extensions,
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
