/**
 * Builds a handler from its operation contract: the same schemas validate and document the request.
 * A handler imports only its own contract, so its bundle carries no other operation's schemas.
 */
import type * as z from 'zod/mini';
import { type OperationRequest, operation } from '#shared/http/operation.ts';
import type { OperationName } from '#shared/http/routes.ts';
import type { HttpHandler, HttpResult } from '#shared/http/types.ts';
import type { OperationContract } from './contracts.ts';

type Part<R, K extends string> = R extends { [key in K]: infer S }
  ? S extends z.ZodMiniType
    ? z.output<S>
    : undefined
  : undefined;

export type ContractRequest<C extends OperationContract> = OperationRequest<
  Part<C['request'], 'body'>,
  Part<C['request'], 'query'>,
  Part<C['request'], 'path'>
>;

export function contractOperation<C extends OperationContract>(
  name: OperationName,
  contract: C,
  handle: (request: ContractRequest<C>) => Promise<HttpResult>,
): HttpHandler {
  const { body, bodyOptional, query, path } = contract.request;
  return operation(
    { name, authenticated: contract.authenticated, body, bodyOptional, query, path },
    handle as (request: OperationRequest<unknown, unknown, unknown>) => Promise<HttpResult>,
  );
}
