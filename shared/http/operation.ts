/**
 * The one middy chain every handler is built with:
 *   request log → problem+json errors → well-formed target → JSON body → validate → authenticate → handler.
 * Input is judged before authentication, so a malformed path parameter, query or body is a 400 decided
 * before any storage call (the session check reads DynamoDB). Handlers receive parsed, validated input and
 * the caller, and hold no try/catch and no SDK calls.
 */
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import type * as z from 'zod/mini';
import { metered } from '#shared/clients/capacity-meter.ts';
import type { Caller } from '#shared/domain/user.ts';
import { authenticateRequest } from './middleware/authenticate.ts';
import { jsonBody } from './middleware/json-body.ts';
import { problemErrors } from './middleware/problem-errors.ts';
import { requestLog } from './middleware/request-log.ts';
import { validateInput } from './middleware/validate-input.ts';
import { wellFormedTarget } from './middleware/well-formed-target.ts';
import type { HttpEvent, HttpHandler, HttpResult } from './types.ts';

export interface OperationSpec<B extends z.ZodMiniType, Q extends z.ZodMiniType, P extends z.ZodMiniType> {
  /** Operation id of the route table. */
  name: string;
  /** false only for login and the route fallback. */
  authenticated?: boolean;
  body?: B;
  /** A body may be left out entirely (DELETE sends `{}` or nothing). */
  bodyOptional?: boolean;
  query?: Q;
  path?: P;
}

export interface OperationRequest<B, Q, P> {
  body: B;
  query: Q;
  path: P;
  caller: Caller;
  event: HttpEvent;
  requestId: string;
}

/** What the middlewares attach to the event as they go. */
export interface ParsedEvent extends HttpEvent {
  parsedBody?: unknown;
  caller?: Caller;
  input?: { body: unknown; query: unknown; path: unknown };
}

export function operation<B extends z.ZodMiniType, Q extends z.ZodMiniType, P extends z.ZodMiniType>(
  spec: OperationSpec<B, Q, P>,
  handle: (request: OperationRequest<z.output<B>, z.output<Q>, z.output<P>>) => Promise<HttpResult>,
): HttpHandler {
  const chain = middy<ParsedEvent, HttpResult>()
    .use(requestLog(spec.name))
    .use(problemErrors())
    .use(wellFormedTarget())
    .use(jsonBody(spec.body !== undefined, spec.bodyOptional ?? false))
    .use(validateInput({ body: spec.body, query: spec.query, path: spec.path }))
    .use(authenticateRequest(spec.authenticated ?? true))
    .handler(async (event) => {
      const input = event.input ?? { body: undefined, query: undefined, path: undefined };
      return handle({
        body: input.body as z.output<B>,
        query: input.query as z.output<Q>,
        path: input.path as z.output<P>,
        caller: event.caller as Caller,
        event,
        requestId: event.requestContext.requestId,
      });
    });
  // The meter wraps the whole chain so the request log can report the capacity the request consumed.
  return async (event: HttpEvent, context: Context) => (await metered(() => chain(event, context))).result;
}
