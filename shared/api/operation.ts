/**
 * One declaration per operation: its routes, the handler file, the access its function is granted, and
 * its contract (summary, tag, request schemas, every response). The CDK stack builds functions and routes
 * from the declarations, the local adapter dispatches with them, the OpenAPI document is generated from
 * them, and a handler is built from its own declaration (`handle(declaration, …)`), so it validates with
 * exactly the schemas the reference shows and cannot claim another operation's name.
 */
import * as z from 'zod/mini';
import type { BackgroundJobName, QueueName } from './background-jobs.ts';

/** HEAD is routed where declared: the GET's handler answers it, without the body (handle). */
export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
/** Methods that read: they take no body and change nothing. */
const READ_METHODS: ReadonlySet<HttpMethod> = new Set(['GET', 'HEAD']);
export const API_PREFIX = '/api/v1';

/** What an operation's function may touch; the stack grants exactly this. */
export interface OperationAccess {
  table: 'none' | 'read' | 'readWrite';
  /** Object key prefixes (see storage-layout.ts) the function may read, write and delete; none by default. */
  bucket: BucketAccess;
  /** Background functions (background-jobs.ts) it starts by an asynchronous invoke. */
  invokes?: readonly BackgroundJobName[];
  /** Queues (background-jobs.ts) it sends messages to. */
  sendsTo?: readonly QueueName[];
  /** kms:Sign for the token signer (login); every authenticated function may read the public key. */
  signsTokens: boolean;
  /**
   * Authenticated operations read the session and user, and may touch or end the session: the stack
   * grants those writes on SESSION# items only, even to read-only operations.
   */
  verifiesTokens: boolean;
}

export interface BucketAccess {
  read: readonly string[];
  /** Put (multipart included), delete, abort. */
  write: readonly string[];
  /** Put object tags only (attaching a file ends its expiry). */
  tag: readonly string[];
}
export const NO_BUCKET: BucketAccess = { read: [], write: [], tag: [] };

/** The access of an operation that needs a live session. */
export const authenticated = (table: OperationAccess['table']): OperationAccess => ({
  table,
  bucket: NO_BUCKET,
  signsTokens: false,
  verifiesTokens: true,
});
export const NO_STORAGE: OperationAccess = {
  table: 'none',
  bucket: NO_BUCKET,
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
  /** The query parameters the reference shows, when the route takes fewer than its operation's. */
  query?: z.ZodMiniType;
}

export interface ResponseContract {
  description: string;
  /** JSON body schema; 'problem' for application/problem+json; a media type for other bodies. */
  body?: z.ZodMiniType | 'problem' | { mediaType: string };
  headers?: Record<string, string>;
}

/**
 * How a body is sent: JSON (the default), an XML document (BPMN), or bytes of any media type (upload
 * chunks, which reach the schema as RawBody), and how large it may be.
 */
export interface BodyFormat {
  mediaType: 'application/json' | 'application/xml' | 'application/octet-stream';
  /** Other media types of the same family the body is taken as, for the document (text/xml, …). */
  alsoDocumented?: readonly string[];
  maxBytes: number;
}

/** A body taken as bytes, with the media type it was sent as. */
export interface RawBody {
  contentType: string;
  bytes: Buffer;
}

/** JSON bodies of at most 256 KiB: a node stays well inside DynamoDB's 400 KB item limit. */
export const JSON_BODY: BodyFormat = { mediaType: 'application/json', maxBytes: 256 * 1024 };

export interface RequestContract {
  /** None: a write (any route but GET) takes no body or `{}` (requestContract); a GET's body is not read. */
  body?: z.ZodMiniType;
  /** A body may be left out entirely (DELETE sends `{}` or nothing). */
  bodyOptional?: boolean;
  /** Default: JSON of at most 256 KiB (JSON_BODY). An XML body reaches the schema as its text, bytes as RawBody. */
  bodyFormat?: BodyFormat;
  /** None: the operation takes no query parameter, so any is a 400 (requestContract). */
  query?: z.ZodMiniType;
  /**
   * The query parameters that may be sent more than once (the schema gets their values joined with
   * commas); any other sent twice is a 400.
   */
  repeatableQuery?: readonly string[];
  path?: z.ZodMiniType;
  examples?: Record<string, { summary: string; value: unknown }>;
}

/** The query of an operation that declares none: no parameter at all (any is a 400, unrecognized_key). */
export const NO_QUERY = z.strictObject({});
/** The body of a write that declares none: nothing, or `{}` (any field is a 400, unrecognized_key). */
export const NO_BODY_FIELDS = z.strictObject({});

/**
 * The request an operation validates and the reference shows: its declaration, where a part it leaves out
 * means "none", never "anything". Without a query schema it takes no query parameter; a write (a route
 * other than GET) without a body schema takes no body, or `{}`, as a DELETE with `bodyOptional` does. So
 * an unknown parameter or field is a 400 naming it on every route alike.
 */
export function requestContract(
  operation: Pick<OperationDeclaration, 'request'> & { routes?: readonly RouteDeclaration[] },
): RequestContract {
  const { request } = operation;
  const writes = operation.routes?.some((route) => !READ_METHODS.has(route.method)) ?? false;
  return {
    ...request,
    query: request.query ?? NO_QUERY,
    ...(request.body === undefined && writes ? { body: NO_BODY_FIELDS, bodyOptional: true } : {}),
  };
}

/** What the stack needs to build a function: an operation's, or a background job's. */
export interface FunctionDeclaration {
  /** Names the function and its log lines. */
  name: string;
  /** Handler module, relative to the project root; it exports `handler`. */
  handler: string;
  access: OperationAccess;
  /** Memory of the function, MB (operations that hash passwords need 1024). */
  memoryMb?: number;
  /** Default 29 s (API Gateway waits 30 s); a background job may run up to 900 s. */
  timeoutSeconds?: number;
  /** The function serves the Swagger UI files, which are copied next to its bundle. */
  servesReferenceAssets?: boolean;
}

export type ConditionalHeader = 'If-Match' | 'If-None-Match';

export interface OperationDeclaration extends FunctionDeclaration {
  /** Operation id: names the function, the log lines and (by default) the OpenAPI operation. */
  name: string;
  /** Handler module, relative to the project root; it exports `handler`. */
  handler: string;
  /** Empty for the fallback, which API Gateway's `$default` route reaches. */
  routes: readonly RouteDeclaration[];
  summary: string;
  description?: string;
  /** The reference's group: Common, Action, User, Governance or an object type (see openapi.ts TAGS). */
  tag: string;
  /** Every operation needs a live session, but for these: login, the reference and the route fallback. */
  authenticated?: false;
  /** Takes an Idempotency-Key (writes of nodes): a repeat gets the first answer and writes nothing. */
  idempotent?: true;
  /**
   * The conditional headers it evaluates on the current ETag (RFC 9110 §13, preconditions.ts): If-Match
   * that does not match, or on a write If-None-Match that does, answers 412; on a read If-None-Match that
   * matches answers 304. The reference shows the headers and the 412.
   */
  conditions?: readonly ConditionalHeader[];
  request: RequestContract;
  responses: Record<number, ResponseContract>;
}

/** Declares an operation; the literal types are kept, so handlers get its exact request types. */
export const defineOperation = <const D extends OperationDeclaration>(declaration: D): D => declaration;

export const problem = (description: string): ResponseContract => ({ description, body: 'problem' });

/**
 * What an operation can answer: the responses it declares, over those every operation of its kind can
 * give (bad input, a body too large or of another type, no live session, a cross-site cookie request,
 * a bug, a busy data store).
 */
export function documentedResponses(operation: OperationDeclaration): Record<number, ResponseContract> {
  const withSession = operation.authenticated !== false;
  const changes = operation.routes.some((route) => !READ_METHODS.has(route.method));
  const request = requestContract(operation);
  const responses: Record<number, ResponseContract> = {
    400: problem(
      request.body
        ? 'Invalid input: `errors` names each field (JSON path) and the rule it breaks'
        : 'A path or query parameter that is not valid (or not well-formed percent-encoded UTF-8)',
    ),
    // Any request, whatever it carries: API Gateway's payload limit, and an Expect the API cannot meet.
    413: problem('The request is larger than 10 MB'),
    417: problem('An Expect header other than 100-continue'),
    500: problem('A bug: the body carries only the requestId to quote'),
    503: problem('Temporarily unavailable (throttling); retry after Retry-After seconds'),
  };
  if (request.body) {
    const { mediaType, maxBytes } = request.bodyFormat ?? JSON_BODY;
    responses[413] = problem(`The body is larger than ${maxBytes / 1024} KiB`);
    const alike = mediaType === 'application/octet-stream' ? '' : ` (or a +${mediaType.split('/')[1]} type)`;
    const refused =
      mediaType === 'application/octet-stream'
        ? 'The body is sent with a content coding (compressed)'
        : `The body is not sent as ${mediaType}${alike} in a charset this API reads, or is sent compressed`;
    responses[415] = {
      ...problem(
        `${refused}: \`errors\` names the header (Content-Type, Content-Encoding) and the rule it breaks`,
      ),
      headers: { 'Accept-Encoding': '`identity`, when the body was refused for its Content-Encoding' },
    };
  }
  if (withSession) responses[401] = problem('No token, an invalid or expired token, or an ended session');
  if (withSession && changes) responses[403] = problem('A cookie-authenticated request from another site');
  const declared: Record<number, ResponseContract> = { ...operation.responses };
  if (operation.idempotent) {
    const own = declared[409];
    const idempotencyConflicts =
      'IDEMPOTENCY_KEY_IN_USE: the first request with this Idempotency-Key is still being carried out. ' +
      'IDEMPOTENCY_ANSWER_LOST: it was carried out, but its answer was lost';
    declared[409] = own
      ? { ...own, description: `${own.description}. ${idempotencyConflicts}` }
      : problem(idempotencyConflicts);
    declared[422] ??= problem('IDEMPOTENCY_KEY_REUSED: the Idempotency-Key was used for another request');
  }
  if (operation.conditions?.length) {
    const failures = [
      operation.conditions.includes('If-Match') && 'If-Match does not name the current ETag',
      operation.conditions.includes('If-None-Match') &&
        changes &&
        'If-None-Match is `*` or names the current ETag (nothing is changed)',
    ];
    declared[412] ??= {
      ...problem(failures.filter(Boolean).join('; ')),
      headers: { ETag: 'The current ETag' },
    };
  }
  return { ...responses, ...declared };
}

export const ETAG = {
  ETag: 'Weak validator of the node: W/"<nodeVersionId>"',
  'Cache-Control': 'no-cache, no-transform, private',
};
