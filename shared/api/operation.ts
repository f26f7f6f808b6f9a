/**
 * One declaration per operation: its routes, the handler file, the access its function is granted, and
 * its contract (summary, tag, request schemas, every response). The CDK stack builds functions and routes
 * from the declarations, the local adapter dispatches with them, the OpenAPI document is generated from
 * them, and a handler is built from its own declaration (`handle(declaration, …)`), so it validates with
 * exactly the schemas the reference shows and cannot claim another operation's name.
 */
import type * as z from 'zod/mini';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
export const API_PREFIX = '/api/v1';

/** What an operation's function may touch; the stack grants exactly this. */
export interface OperationAccess {
  table: 'none' | 'read' | 'readWrite';
  bucket: 'none' | 'read' | 'readWrite';
  /** kms:Sign for the token signer (login); every authenticated function may read the public key. */
  signsTokens: boolean;
  /**
   * Authenticated operations read the session and user, and may touch or end the session: the stack
   * grants those writes on SESSION# items only, even to read-only operations.
   */
  verifiesTokens: boolean;
}

/** The access of an operation that needs a live session. */
export const authenticated = (table: OperationAccess['table']): OperationAccess => ({
  table,
  bucket: 'none',
  signsTokens: false,
  verifiesTokens: true,
});
export const NO_STORAGE: OperationAccess = {
  table: 'none',
  bucket: 'none',
  signsTokens: false,
  verifiesTokens: false,
};

export interface RouteDeclaration {
  method: HttpMethod;
  /** API Gateway route path; `{name}` is a path parameter. */
  path: string;
  /** operationId in the OpenAPI document when several routes share an operation (default: the name). */
  id?: string;
  /** Tag and summary in the reference when they differ from the operation's (per-type routes). */
  tag?: string;
  summary?: string;
}

export interface ResponseContract {
  description: string;
  /** JSON body schema; 'problem' for application/problem+json; a media type for other bodies. */
  body?: z.ZodMiniType | 'problem' | { mediaType: string };
  headers?: Record<string, string>;
}

export interface RequestContract {
  body?: z.ZodMiniType;
  /** A body may be left out entirely (DELETE sends `{}` or nothing). */
  bodyOptional?: boolean;
  query?: z.ZodMiniType;
  path?: z.ZodMiniType;
  examples?: Record<string, { summary: string; value: unknown }>;
}

export interface OperationDeclaration {
  /** Operation id: names the function, the log lines and (by default) the OpenAPI operation. */
  name: string;
  /** Handler module, relative to the project root; it exports `handler`. */
  handler: string;
  /** Empty for the fallback, which API Gateway's `$default` route reaches. */
  routes: readonly RouteDeclaration[];
  access: OperationAccess;
  /** Memory of the function, MB (operations that hash passwords need 1024). */
  memoryMb?: number;
  /** The function serves the Swagger UI files, which are copied next to its bundle. */
  servesReferenceAssets?: boolean;
  summary: string;
  description?: string;
  /** The reference's group: Common, Action, User, Governance or an object type (see openapi.ts TAGS). */
  tag: string;
  /** false only for login, the reference and the route fallback. */
  authenticated: boolean;
  request: RequestContract;
  responses: Record<number, ResponseContract>;
}

/** Declares an operation; the literal types are kept, so handlers get its exact request types. */
export const defineOperation = <const D extends OperationDeclaration>(declaration: D): D => declaration;

// Responses many operations share.
export const problem = (description: string): ResponseContract => ({ description, body: 'problem' });

export const CROSS_SITE = problem('A cookie-authenticated request from another site');

/** Failures every operation of its kind can answer. */
export const COMMON_PROBLEMS = {
  500: problem('A bug: the body carries only the requestId to quote'),
  503: problem('Temporarily unavailable (throttling); retry after Retry-After seconds'),
};
export const AUTHENTICATED_PROBLEMS = {
  401: problem('No token, an invalid or expired token, or an ended session'),
  ...COMMON_PROBLEMS,
};
export const JSON_BODY_PROBLEMS = {
  400: problem('Invalid input: `errors` names each field (JSON path) and the rule it breaks'),
  413: problem('The body is larger than 256 KiB'),
  415: problem('The body is not sent as application/json'),
};
export const ETAG = {
  ETag: 'Weak validator of the node: W/"<nodeVersionId>"',
  'Cache-Control': 'no-cache, no-transform, private',
};
