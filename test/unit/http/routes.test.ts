import { describe, expect, it } from 'vitest';
import { OPERATIONS, ROUTES, resolveRoute } from '#shared/http/routes.ts';

describe('route table', () => {
  it('resolves a route and decodes its path parameters', () => {
    expect(resolveRoute('GET', '/api/v1/items/AB%2DC')).toMatchObject({
      route: { operation: 'getNode' },
      pathParameters: { nodeId: 'AB-C' },
    });
  });

  it('tells a wrong method (with the allowed ones) from an unknown path', () => {
    expect(resolveRoute('PATCH', '/api/v1/items/X')).toEqual({ allowed: ['GET', 'PUT', 'DELETE'] });
    expect(resolveRoute('GET', '/api/v1/items/X/extra')).toBeUndefined();
    expect(resolveRoute('GET', '/api/v2/list')).toBeUndefined();
  });

  it('serves login with and without the version prefix', () => {
    expect(resolveRoute('POST', '/login/local')).toMatchObject({ route: { operation: 'login' } });
    expect(resolveRoute('POST', '/api/v1/login/local')).toMatchObject({ route: { operation: 'login' } });
  });

  it('has no duplicate routes and only known operations', () => {
    const keys = ROUTES.map((r) => `${r.method} ${r.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const route of ROUTES) expect(OPERATIONS[route.operation]).toBeDefined();
  });
});
