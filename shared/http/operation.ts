/**
 * The one middy chain every handler is built with, from its operation's declaration:
 *   request log → problem+json errors → well-formed target → body → [parameters] → validate → authenticate
 *   → Idempotency-Key (node writes) → handler.
 * Input is judged before authentication, so a malformed path parameter, query or body is a 400 decided
 * before any storage call (the session check reads DynamoDB). Handlers receive parsed, validated input and
 * the caller, and hold no try/catch and no SDK calls.
 */
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import type * as z from 'zod/mini';
import { type OperationDeclaration, requestContract } from '#shared/api/operation.ts';
import { metered } from '#shared/clients/capacity-meter.ts';
import { withInvocation } from '#shared/clients/invocation.ts';
import { config } from '#shared/config/index.ts';
import type { Caller } from '#shared/domain/user.ts';
import type { VerifiedPrincipal } from '#shared/services/authentication.ts';
import { awaitedLater } from '#shared/services/awaited-later.ts';
import { varyByOrigin } from './cors.ts';
import { authenticateRequest } from './middleware/authenticate.ts';
import { idempotency } from './middleware/idempotency.ts';
import { problemErrors } from './middleware/problem-errors.ts';
import { requestBody } from './middleware/request-body.ts';
import { requestLog } from './middleware/request-log.ts';
import { validateInput } from './middleware/validate-input.ts';
import { wellFormedTarget } from './middleware/well-formed-target.ts';
import type { HttpEvent, HttpHandler, HttpResult } from './types.ts';

/** The parsed type of one part of a declared request (undefined when the operation takes none). */
type Parsed<R, K extends string> = R extends { [key in K]: infer S }
  ? S extends z.ZodMiniType
    ? z.output<S>
    : undefined
  : undefined;

export interface OperationRequest<D extends Pick<OperationDeclaration, 'request'>, P = undefined> {
  body: Parsed<D['request'], 'body'>;
  query: Parsed<D['request'], 'query'>;
  path: Parsed<D['request'], 'path'>;
  caller: Caller;
  event: HttpEvent;
  requestId: string;
  /** What the handler's `prefetch` read, started beside the session check. */
  prefetched: Promise<P>;
}

/** The validated input of a request. */
export type OperationInput<D extends Pick<OperationDeclaration, 'request'>> = Pick<
  OperationRequest<D>,
  'body' | 'query' | 'path'
>;

/** What the middlewares attach to the event as they go. */
export interface ParsedEvent extends HttpEvent {
  parsedBody?: unknown;
  /** The parameters to validate as the query, when the operation gathers them from more than the query. */
  queryInput?: Record<string, string>;
  caller?: Caller;
  input?: { body: unknown; query: unknown; path: unknown };
  /** The kept answer of an earlier request with this Idempotency-Key, answered instead of the handler's. */
  replay?: HttpResult;
  /** The handler's first read, started once the token was verified (handle's `prefetch`). */
  prefetched?: Promise<unknown>;
}

type Declared = Pick<OperationDeclaration, 'name' | 'authenticated' | 'idempotent' | 'request'> &
  Partial<Pick<OperationDeclaration, 'routes'>>;

/** A read started beside the session check: the validated input and the principal the token names. */
type Prefetch<D extends Pick<OperationDeclaration, 'request'>, P> = (
  input: OperationInput<D>,
  verified: VerifiedPrincipal,
) => Promise<P>;

type RequestHandler<D extends Declared, P> = (request: OperationRequest<D, P>) => Promise<HttpResult>;

/**
 * What a handler may add to the chain: `prefetch` (below), and `parameters`, a middleware run once the
 * body is read and before validation, that gathers the parameters an operation takes from more than the
 * query (into ParsedEvent.queryInput: an upload chunk's, from its form).
 */
interface HandleOptions<D extends Pick<OperationDeclaration, 'request'>, P> {
  prefetch?: Prefetch<D, P>;
  parameters?: middy.MiddlewareObj<ParsedEvent, HttpResult>;
}

/**
 * The Lambda handler of a declared operation. `prefetch` is a read that needs only the validated input
 * and the token's principal (the object a retrieve answers, the caller's own upload record): it starts
 * as soon as the request's token is verified, beside the session read, instead of after it; the handler
 * awaits it as `prefetched` and judges the caller's rights on what it read. A request without a valid
 * token reads nothing.
 */
export function handle<D extends Declared>(
  declaration: D,
  handleRequest: (request: OperationRequest<D>) => Promise<HttpResult>,
): HttpHandler;
export function handle<D extends Declared, P>(
  declaration: D,
  options: HandleOptions<D, P>,
  handleRequest: (request: OperationRequest<D, P>) => Promise<HttpResult>,
): HttpHandler;
export function handle<D extends Declared, P>(
  declaration: D,
  ...rest:
    | [(request: OperationRequest<D, P>) => Promise<HttpResult>]
    | [HandleOptions<D, P>, (request: OperationRequest<D, P>) => Promise<HttpResult>]
): HttpHandler {
  const [options, handleRequest]: [HandleOptions<D, P>, RequestHandler<D, P>] =
    rest.length === 1 ? [{}, rest[0]] : rest;
  // What the declaration leaves out is taken as none: unknown parameters and fields are a 400.
  const { body, bodyOptional, bodyFormat, query, repeatableQuery = [], path } = requestContract(declaration);
  const inputOf = (event: ParsedEvent) =>
    (event.input ?? { body: undefined, query: undefined, path: undefined }) as OperationInput<D>;
  const { prefetch, parameters } = options;
  if (prefetch && declaration.authenticated === false) {
    throw new Error(
      `${declaration.name}: a prefetch needs the token's principal, so an authenticated operation`,
    );
  }
  const startPrefetch = prefetch
    ? (event: ParsedEvent, verified: VerifiedPrincipal) => {
        // Awaited by the handler, unless the session check failed first.
        event.prefetched = awaitedLater(prefetch(inputOf(event), verified));
      }
    : undefined;
  const chain = middy<ParsedEvent, HttpResult>()
    .use(requestLog(declaration.name))
    .use(problemErrors())
    .use(wellFormedTarget())
    .use(requestBody(body !== undefined, bodyOptional ?? false, bodyFormat))
    .use(parameters ?? [])
    .use(validateInput({ body, query, repeatableQuery, path }))
    .use(authenticateRequest(declaration.authenticated !== false, startPrefetch))
    .use(idempotency(declaration.idempotent === true))
    .handler(async (event) => {
      if (event.replay) return event.replay;
      if (startPrefetch && !event.prefetched) {
        startPrefetch(event, { principalId: (event.caller as Caller).principal.principalId });
      }
      return handleRequest({
        ...inputOf(event),
        caller: event.caller as Caller,
        event,
        requestId: event.requestContext.requestId,
        prefetched: (event.prefetched ?? Promise.resolve(undefined)) as Promise<P>,
      });
    });
  // The meter wraps the whole chain so the request log can report the capacity the request consumed.
  return async (event: HttpEvent, context: Context) => {
    const result = await withInvocation(
      event.requestContext.requestId,
      async () => (await metered(() => chain(event, context))).result,
    );
    // API Gateway adds the CORS headers of an allowed origin to this answer; that the answer varies with
    // the Origin is said here, as API Gateway does not document adding Vary.
    const answer = varyByOrigin(result, config().corsOrigins);
    return event.requestContext.http.method === 'HEAD' ? withoutBody(answer) : answer;
  };
}

/**
 * A GET's answer to a HEAD: its status and headers, the length of the body it leaves out included (but
 * on a 304 or 204, which have no body to measure).
 */
function withoutBody(result: HttpResult): HttpResult {
  const length = result.body ? Buffer.byteLength(result.body, result.isBase64Encoded ? 'base64' : 'utf8') : 0;
  const bodiless = result.statusCode === 304 || result.statusCode === 204;
  return {
    ...result,
    headers: bodiless ? result.headers : { 'content-length': String(length), ...result.headers },
    body: '',
    isBase64Encoded: false,
  };
}
