/** Builds a handler from its operation contract: the same schemas validate and document the request. */
import type * as z from 'zod/mini';
import { type OperationRequest, operation } from '#shared/http/operation.ts';
import type { OperationName } from '#shared/http/routes.ts';
import type { HttpHandler, HttpResult } from '#shared/http/types.ts';
import { CONTRACTS } from './contracts.ts';

type RequestOf<N extends OperationName> = (typeof CONTRACTS)[N]['request'];
type Part<R, K extends string> = R extends { [key in K]: infer S }
  ? S extends z.ZodMiniType
    ? z.output<S>
    : undefined
  : undefined;

export type ContractRequest<N extends OperationName> = OperationRequest<
  Part<RequestOf<N>, 'body'>,
  Part<RequestOf<N>, 'query'>,
  Part<RequestOf<N>, 'path'>
>;

export function contractOperation<N extends OperationName>(
  name: N,
  handle: (request: ContractRequest<N>) => Promise<HttpResult>,
): HttpHandler {
  const contract = CONTRACTS[name];
  const { body, bodyOptional, query, path } = contract.request as {
    body?: z.ZodMiniType;
    bodyOptional?: boolean;
    query?: z.ZodMiniType;
    path?: z.ZodMiniType;
  };
  return operation(
    { name, authenticated: contract.authenticated, body, bodyOptional, query, path },
    handle as (request: OperationRequest<unknown, unknown, unknown>) => Promise<HttpResult>,
  );
}
