/**
 * Every operation judges its whole query and (for writes) its whole JSON body: one that declares no query
 * takes no parameter, a write that declares no body takes none or `{}`, so an unknown parameter or field is
 * a 400 naming it on every route, never silently ignored.
 */
import { describe, expect, it } from 'vitest';
import { requestContract } from '#shared/api/operation.ts';
import { FALLBACK_OPERATION, OPERATION_LIST } from '#shared/api/operations/index.ts';
import { ValidationError } from '#shared/domain/errors.ts';
import { parseInput } from '#shared/http/validation.ts';

const routed = OPERATION_LIST.filter((operation) => operation !== FALLBACK_OPERATION);

function errorsOf(run: () => unknown) {
  try {
    run();
  } catch (error) {
    if (error instanceof ValidationError) return error.details.errors ?? [];
    throw error;
  }
  return [];
}

describe('strict input on every operation', () => {
  it.each(routed.map((operation) => [operation.name, operation] as const))(
    '%s refuses an unknown query parameter',
    (_, operation) => {
      const { query } = requestContract(operation);
      expect(query).toBeDefined();
      expect(errorsOf(() => parseInput(query as never, { zzUnknown: '1' }, 'query'))).toContainEqual(
        expect.objectContaining({ in: 'query', path: '$.zzUnknown', rule: 'unrecognized_key' }),
      );
    },
  );

  const writes = routed.filter(
    (operation) =>
      operation.routes.some((route) => route.method !== 'GET' && route.method !== 'HEAD') &&
      (requestContract(operation).bodyFormat?.mediaType ?? 'application/json') === 'application/json',
  );
  it.each(writes.map((operation) => [operation.name, operation] as const))(
    '%s refuses a body field it does not take',
    (_, operation) => {
      const { body } = requestContract(operation);
      expect(body).toBeDefined();
      const errors = errorsOf(() => parseInput(body as never, { zzUnknown: 1 }, 'body'));
      expect(errors.length).toBeGreaterThan(0);
      expect(errors.every((error) => error.in === 'body')).toBe(true);
    },
  );

  it('a write that declares no body takes none, or {}, and nothing else', () => {
    const { rotateWebhookSecret } = Object.fromEntries(routed.map((o) => [o.name, o]));
    const contract = requestContract(rotateWebhookSecret as (typeof routed)[number]);
    expect(contract.bodyOptional).toBe(true);
    expect(parseInput(contract.body as never, {}, 'body')).toEqual({});
    expect(errorsOf(() => parseInput(contract.body as never, { a: 1 }, 'body'))).toEqual([
      expect.objectContaining({ in: 'body', path: '$.a', rule: 'unrecognized_key' }),
    ]);
  });

  it('the route fallback judges no query: any request reaches its 404 or 405', () => {
    expect(() =>
      parseInput(requestContract(FALLBACK_OPERATION).query as never, { x: '1' }, 'query'),
    ).not.toThrow();
  });
});
