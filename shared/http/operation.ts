/**
 * The one middy chain every handler is built with, from its operation's declaration:
 *   request log → problem+json errors → well-formed target → body → validate → authenticate
 *   → Idempotency-Key (node writes) → handler.
 * Input is judged before authentication, so a malformed path parameter, query or body is a 400 decided
 * before any storage call (the session check reads DynamoDB). Handlers receive parsed, validated input and
 * the caller, and hold no try/catch and no SDK calls.
 */
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import type * as z from 'zod/mini';
import type { OperationDeclaration } from '#shared/api/operation.ts';
import { metered } from '#shared/clients/capacity-meter.ts';
import { withInvocation } from '#shared/clients/invocation.ts';
import type { Caller } from '#shared/domain/user.ts';
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

export interface OperationRequest<D extends Pick<OperationDeclaration, 'request'>> {
  body: Parsed<D['request'], 'body'>;
  query: Parsed<D['request'], 'query'>;
  path: Parsed<D['request'], 'path'>;
  caller: Caller;
  event: HttpEvent;
  requestId: string;
}

/** What the middlewares attach to the event as they go. */
export interface ParsedEvent extends HttpEvent {
  parsedBody?: unknown;
  caller?: Caller;
  input?: { body: unknown; query: unknown; path: unknown };
  /** The kept answer of an earlier request with this Idempotency-Key, answered instead of the handler's. */
  replay?: HttpResult;
}

/** The Lambda handler of a declared operation. */
export function handle<
  D extends Pick<OperationDeclaration, 'name' | 'authenticated' | 'idempotent' | 'request'>,
>(declaration: D, handleRequest: (request: OperationRequest<D>) => Promise<HttpResult>): HttpHandler {
  const { body, bodyOptional, bodyFormat, query, path } = declaration.request;
  const chain = middy<ParsedEvent, HttpResult>()
    .use(requestLog(declaration.name))
    .use(problemErrors())
    .use(wellFormedTarget())
    .use(requestBody(body !== undefined, bodyOptional ?? false, bodyFormat))
    .use(validateInput({ body, query, path }))
    .use(authenticateRequest(declaration.authenticated !== false))
    .use(idempotency(declaration.idempotent === true))
    .handler(async (event) => {
      if (event.replay) return event.replay;
      const input = event.input ?? { body: undefined, query: undefined, path: undefined };
      return handleRequest({
        ...(input as Pick<OperationRequest<D>, 'body' | 'query' | 'path'>),
        caller: event.caller as Caller,
        event,
        requestId: event.requestContext.requestId,
      });
    });
  // The meter wraps the whole chain so the request log can report the capacity the request consumed.
  return async (event: HttpEvent, context: Context) =>
    withInvocation(
      event.requestContext.requestId,
      async () => (await metered(() => chain(event, context))).result,
    );
}
