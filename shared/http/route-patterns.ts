/**
 * Every route's method and path, for the fallback that tells 404 from 405. A bundle has them inlined
 * (infra/bundling.ts defines ROUTE_PATTERNS_JSON from the declarations at build time), so the fallback's
 * cold start loads no operation and none of their schemas; run from source (the embedded stack, tests),
 * they are read from the declarations themselves.
 */
import type { RoutePattern } from './route-matching.ts';

declare const ROUTE_PATTERNS_JSON: string | undefined;

export async function routePatterns(): Promise<readonly RoutePattern[]> {
  if (typeof ROUTE_PATTERNS_JSON === 'string') return JSON.parse(ROUTE_PATTERNS_JSON) as RoutePattern[];
  return (await import('./routes.ts')).ROUTES;
}

/** The table a bundle inlines: method and path of each route, in the declarations' order. */
export const patternsOf = (routes: readonly RoutePattern[]): RoutePattern[] =>
  routes.map(({ method, path }) => ({ method, path }));
