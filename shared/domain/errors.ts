/**
 * Domain errors: each carries a kind (what went wrong, in the domain's words) and a stable `code`, and
 * knows nothing of HTTP; shared/http/problem.ts maps kinds to statuses, titles and headers. Anything that
 * is not a DomainError is a bug.
 */

export interface FieldError {
  /** Where the bad value is: the body, the query string, a path parameter or a header. */
  in: 'body' | 'query' | 'path' | 'header';
  /** JSON path of the field, `$` being the root of that location (e.g. `$.parent.nodeId`). */
  path: string;
  /** The rule that failed, machine-readable (e.g. `required`, `invalid_type`, `unrecognized_key`). */
  rule: string;
  message: string;
}

/** A rule a field of the body breaks. */
export const bodyError = (path: string, rule: string, message: string): FieldError => ({
  in: 'body',
  path,
  rule,
  message,
});

/** A rule a header of the request breaks (`path` names the header as `$.<Name>`). */
export const headerError = (name: string, rule: string, message: string): FieldError => ({
  in: 'header',
  path: `$.${name}`,
  rule,
  message,
});

export type ErrorKind =
  | 'invalid'
  | 'unreadable'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'gone'
  | 'method_not_allowed'
  | 'conflict'
  | 'stale_precondition'
  | 'too_large'
  | 'range_not_satisfiable'
  | 'unsupported_media_type'
  | 'expectation_failed'
  | 'too_many_requests'
  | 'mismatch'
  | 'unavailable';

export interface ErrorDetails {
  /** Each bad field, for invalid input. */
  errors?: FieldError[];
  /** Extra members of the answer (e.g. currentNodeVersionId, allowedMethods, limitBytes). */
  extensions?: Record<string, unknown>;
  /** When to try again (too many requests, unavailable). */
  retryAfterSeconds?: number;
  /** The current ETag a failed precondition was evaluated on (the 412 sends it). */
  currentEtag?: string;
  /** The content codings a body is taken in, when one was refused for its coding. */
  acceptedCodings?: readonly string[];
}

export class DomainError extends Error {
  constructor(
    readonly kind: ErrorKind,
    readonly code: string,
    message: string,
    readonly details: ErrorDetails = {},
  ) {
    super(message);
  }
}

export class ValidationError extends DomainError {
  constructor(errors: FieldError[]) {
    super('invalid', 'VALIDATION_FAILED', errors.map((e) => `${e.in} ${e.path}: ${e.message}`).join('; '), {
      errors,
    });
  }
}

export class BadRequestError extends DomainError {
  constructor(code: string, message: string, errors: FieldError[] = []) {
    super('invalid', code, message, { errors });
  }
}

/** A body that is not JSON, or a request that cannot even be read as HTTP. */
export class UnreadableError extends DomainError {
  constructor(
    code: 'MALFORMED_JSON' | 'MALFORMED_XML' | 'MALFORMED_REQUEST',
    message: string,
    /** The header that makes it unreadable, when one does. */
    errors: FieldError[] = [],
  ) {
    super('unreadable', code, message, { errors });
  }
}

export class UnauthenticatedError extends DomainError {
  constructor(
    code: 'UNAUTHENTICATED' | 'INVALID_TOKEN' | 'SESSION_ENDED' | 'INVALID_CREDENTIALS',
    message: string,
  ) {
    super('unauthenticated', code, message);
  }
}

export class ForbiddenError extends DomainError {
  constructor(message: string) {
    super('forbidden', 'FORBIDDEN', message);
  }
}

export class NotFoundError extends DomainError {
  constructor(
    code:
      | 'NODE_NOT_FOUND'
      | 'PARENT_NOT_FOUND'
      | 'ROUTE_NOT_FOUND'
      | 'USER_NOT_FOUND'
      | 'GRANT_NOT_FOUND'
      | 'SESSION_NOT_FOUND'
      | 'ACTION_NOT_FOUND'
      | 'EDGE_NOT_FOUND'
      | 'UPLOAD_NOT_FOUND'
      | 'FILE_NOT_FOUND'
      | 'VERSION_NOT_FOUND'
      | 'RELATION_NOT_FOUND'
      | 'WEBHOOK_NOT_FOUND'
      | 'DELIVERY_NOT_FOUND',
    message: string,
    /** The field that names what was not found, when it came in the body. */
    errors: FieldError[] = [],
  ) {
    super('not_found', code, message, { errors });
  }
}

export class MethodNotAllowedError extends DomainError {
  constructor(method: string, path: string, allowed: string[]) {
    super(
      'method_not_allowed',
      'METHOD_NOT_ALLOWED',
      `${method} is not allowed on ${path}; allowed: ${allowed.join(', ')}`,
      {
        extensions: { allowedMethods: allowed },
      },
    );
  }
}

export class ConflictError extends DomainError {
  constructor(code: string, message: string, extensions: Record<string, unknown> = {}) {
    super('conflict', code, message, { extensions });
  }
}

export class VersionConflictError extends ConflictError {
  constructor(nodeId: string, sentNodeVersionId: string, currentNodeVersionId: string) {
    super(
      'VERSION_CONFLICT',
      `nodeVersionId ${sentNodeVersionId} of node ${nodeId} is not the current one (${currentNodeVersionId}); ` +
        'retrieve the node, apply your change again and resend it with the current nodeVersionId',
      { nodeId, currentNodeVersionId },
    );
  }
}

/** What the request names existed once and no longer does (an expired change-feed cursor). */
export class GoneError extends DomainError {
  constructor(code: string, message: string) {
    super('gone', code, message);
  }
}

export class PreconditionFailedError extends DomainError {
  constructor(message: string, currentEtag: string) {
    super('stale_precondition', 'PRECONDITION_FAILED', message, { currentEtag });
  }
}

export class PayloadTooLargeError extends DomainError {
  constructor(limitBytes: number) {
    super('too_large', 'PAYLOAD_TOO_LARGE', `The request body exceeds the limit of ${limitBytes} bytes`, {
      extensions: { limitBytes },
    });
  }
}

/** A Range outside the file (RFC 9110 §15.5.17): the answer names the file's size. */
export class RangeNotSatisfiableError extends DomainError {
  constructor(range: string, size: number) {
    super(
      'range_not_satisfiable',
      'RANGE_NOT_SATISFIABLE',
      `The range ${range} is outside the file of ${size} bytes`,
      {
        extensions: { size },
      },
    );
  }
}

/**
 * A body sent in a form the operation does not take: `error` names the header that says so (Content-Type,
 * or Content-Encoding, with the codings that are taken).
 */
export class UnsupportedMediaTypeError extends DomainError {
  constructor(message: string, error: FieldError, acceptedCodings?: readonly string[]) {
    super('unsupported_media_type', 'UNSUPPORTED_MEDIA_TYPE', message, {
      errors: [error],
      ...(acceptedCodings ? { acceptedCodings } : {}),
    });
  }
}

/** An `Expect` header other than 100-continue (RFC 9110 §10.1.1): the request is not read. */
export class ExpectationFailedError extends DomainError {
  constructor(expect: string) {
    super(
      'expectation_failed',
      'EXPECTATION_FAILED',
      `Only "Expect: 100-continue" is understood (got "${expect}"): send the request without it`,
    );
  }
}

export class TooManyRequestsError extends DomainError {
  constructor(code: string, message: string, retryAfterSeconds: number) {
    const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
    super('too_many_requests', code, message, {
      retryAfterSeconds: seconds,
      extensions: { retryAfterSeconds: seconds },
    });
  }
}

export class ServiceUnavailableError extends DomainError {
  constructor(message: string, retryAfterSeconds = 1) {
    super('unavailable', 'TEMPORARILY_UNAVAILABLE', message, { retryAfterSeconds });
  }
}
