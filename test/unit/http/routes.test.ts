import { describe, expect, it } from 'vitest';
import { OPERATION_LIST } from '#shared/api/operations/index.ts';
import { ROUTES, resolveRoute } from '#shared/http/routes.ts';

describe('route table', () => {
  it('resolves a route and decodes its path parameters', () => {
    expect(resolveRoute('GET', '/api/v1/items/AB%2DC')).toMatchObject({
      route: { operation: { name: 'getNode' } },
      pathParameters: { nodeId: 'AB-C' },
    });
  });

  it('tells a wrong method (with the allowed ones) from an unknown path', () => {
    expect(resolveRoute('PATCH', '/api/v1/items/X')).toEqual({ allowed: ['GET', 'PUT', 'DELETE'] });
    expect(resolveRoute('GET', '/api/v1/items/X/extra')).toBeUndefined();
    expect(resolveRoute('GET', '/api/v2/list')).toBeUndefined();
  });

  it('serves login with and without the version prefix', () => {
    expect(resolveRoute('POST', '/login/local')).toMatchObject({ route: { operation: { name: 'login' } } });
    expect(resolveRoute('POST', '/api/v1/login/local')).toMatchObject({
      route: { operation: { name: 'login' } },
    });
  });

  it('has no duplicate routes, operation names or handler files', () => {
    const keys = ROUTES.map((r) => `${r.method} ${r.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    const names = OPERATION_LIST.map((o) => o.name);
    expect(new Set(names).size).toBe(names.length);
    const handlers = OPERATION_LIST.map((o) => o.handler);
    expect(new Set(handlers).size).toBe(handlers.length);
  });

  it('routes to every declared operation but the fallback, which has no route of its own', () => {
    const routed = new Set(ROUTES.map((r) => r.operation.name));
    expect(OPERATION_LIST.filter((o) => !routed.has(o.name)).map((o) => o.name)).toEqual(['routeNotFound']);
  });
});
