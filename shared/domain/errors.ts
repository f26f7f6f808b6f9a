/**
 * Domain errors: each carries its HTTP status and a stable `code`. The HTTP layer maps them to
 * problem+json by class; anything that is not a DomainError is a bug and becomes a generic 500.
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

export abstract class DomainError extends Error {
  abstract readonly status: number;
  abstract readonly code: string;
  abstract readonly title: string;
  /** Extra members of the problem body (e.g. currentNodeVersionId). */
  readonly extensions: Record<string, unknown> = {};
  /** Extra response headers (e.g. Allow, Retry-After). */
  readonly headers: Record<string, string> = {};
}

export class ValidationError extends DomainError {
  readonly status = 400;
  readonly code = 'VALIDATION_FAILED';
  readonly title = 'The request is not valid';
  constructor(readonly errors: FieldError[]) {
    super(errors.map((e) => `${e.in} ${e.path}: ${e.message}`).join('; '));
  }
}

export class MalformedJsonError extends DomainError {
  readonly status = 400;
  readonly code = 'MALFORMED_JSON';
  readonly title = 'The request body is not valid JSON';
}

/** A request that cannot even be read as HTTP (the gateway's own 400). */
export class MalformedRequestError extends DomainError {
  readonly status = 400;
  readonly code = 'MALFORMED_REQUEST';
  readonly title = 'The request cannot be read';
}

export class BadRequestError extends DomainError {
  readonly status = 400;
  readonly title = 'The request cannot be carried out as sent';
  constructor(
    readonly code: string,
    message: string,
    readonly errors: FieldError[] = [],
  ) {
    super(message);
  }
}

export class UnauthenticatedError extends DomainError {
  readonly status = 401;
  readonly title = 'Authentication is required';
  constructor(
    readonly code: 'UNAUTHENTICATED' | 'INVALID_TOKEN' | 'SESSION_ENDED' | 'INVALID_CREDENTIALS',
    message: string,
  ) {
    super(message);
    this.headers['WWW-Authenticate'] = 'Bearer realm="content-repository"';
  }
}

export class ForbiddenError extends DomainError {
  readonly status = 403;
  readonly code = 'FORBIDDEN';
  readonly title = 'Not permitted';
}

export class NotFoundError extends DomainError {
  readonly status = 404;
  readonly title = 'Not found';
  constructor(
    readonly code:
      | 'NODE_NOT_FOUND'
      | 'PARENT_NOT_FOUND'
      | 'ROUTE_NOT_FOUND'
      | 'USER_NOT_FOUND'
      | 'GRANT_NOT_FOUND'
      | 'SESSION_NOT_FOUND'
      | 'ACTION_NOT_FOUND',
    message: string,
    /** The field that names what was not found, when it came in the body. */
    readonly errors: FieldError[] = [],
  ) {
    super(message);
  }
}

export class MethodNotAllowedError extends DomainError {
  readonly status = 405;
  readonly code = 'METHOD_NOT_ALLOWED';
  readonly title = 'Method not allowed';
  constructor(method: string, path: string, allowed: string[]) {
    super(`${method} is not allowed on ${path}; allowed: ${allowed.join(', ')}`);
    this.headers.Allow = allowed.join(', ');
    this.extensions.allowedMethods = allowed;
  }
}

export class VersionConflictError extends DomainError {
  readonly status = 409;
  readonly code = 'VERSION_CONFLICT';
  readonly title = 'The object was changed by someone else';
  constructor(nodeId: string, sentNodeVersionId: string, currentNodeVersionId: string) {
    super(
      `nodeVersionId ${sentNodeVersionId} of node ${nodeId} is not the current one (${currentNodeVersionId}); ` +
        'retrieve the node, apply your change again and resend it with the current nodeVersionId',
    );
    this.extensions.nodeId = nodeId;
    this.extensions.currentNodeVersionId = currentNodeVersionId;
  }
}

export class ConflictError extends DomainError {
  readonly status = 409;
  readonly title = 'The request conflicts with the state of the object';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export class PreconditionFailedError extends DomainError {
  readonly status = 412;
  readonly code = 'PRECONDITION_FAILED';
  readonly title = 'Precondition failed';
  constructor(message: string, currentEtag: string) {
    super(message);
    this.headers.ETag = currentEtag;
  }
}

export class PayloadTooLargeError extends DomainError {
  readonly status = 413;
  readonly code = 'PAYLOAD_TOO_LARGE';
  readonly title = 'The request body is too large';
  constructor(limitBytes: number) {
    super(`The request body exceeds the limit of ${limitBytes} bytes`);
    this.extensions.limitBytes = limitBytes;
  }
}

export class UnsupportedMediaTypeError extends DomainError {
  readonly status = 415;
  readonly code = 'UNSUPPORTED_MEDIA_TYPE';
  readonly title = 'Unsupported media type';
}

export class TooManyRequestsError extends DomainError {
  readonly status = 429;
  readonly title = 'Too many requests';
  constructor(
    readonly code: string,
    message: string,
    retryAfterSeconds: number,
  ) {
    super(message);
    this.headers['Retry-After'] = String(Math.max(1, Math.ceil(retryAfterSeconds)));
    this.extensions.retryAfterSeconds = Math.max(1, Math.ceil(retryAfterSeconds));
  }
}

export class ServiceUnavailableError extends DomainError {
  readonly status = 503;
  readonly code = 'TEMPORARILY_UNAVAILABLE';
  readonly title = 'Temporarily unavailable, retry shortly';
  constructor(message: string, retryAfterSeconds = 1) {
    super(message);
    this.headers['Retry-After'] = String(retryAfterSeconds);
  }
}
