/**
 * Matching a request to routes as API Gateway does, for any table of (method, path) routes: the full
 * table with its operations (routes.ts), or the bare one the fallback is bundled with (route-patterns.ts).
 */
import type { HttpMethod } from '#shared/api/operation.ts';
import { percentDecoded } from './percent-encoding.ts';

export interface RoutePattern {
  method: HttpMethod;
  path: string;
}

export interface PatternMatch<R extends RoutePattern> {
  route: R;
  pathParameters: Record<string, string>;
}

/** A resolver: the route for a request, or the methods the path allows when only the method is wrong. */
export function routeMatcher<R extends RoutePattern>(routes: readonly R[]) {
  const compiled = routes.map((route) => {
    const names: string[] = [];
    const pattern = route.path
      .split('/')
      .map((segment) => {
        const param = /^\{(\w+)\}$/.exec(segment);
        if (!param) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        names.push(param[1] as string);
        return '([^/]+)';
      })
      .join('/');
    return { route, names, regex: new RegExp(`^${pattern}$`) };
  });
  // Literal segments win over parameters, as in API Gateway (`/swagger/openapi.json` before `/swagger/{file}`).
  const bySpecificity = [...compiled].sort((a, b) => a.names.length - b.names.length);

  function matchPath(rawPath: string): PatternMatch<R>[] {
    // API Gateway matches `/a/b/` as `/a/b`.
    const path = rawPath.length > 1 ? rawPath.replace(/\/+$/, '') : rawPath;
    return bySpecificity.flatMap(({ route, names, regex }) => {
      const match = regex.exec(path);
      if (!match) return [];
      // Decoded as API Gateway does; a malformed escape is kept as sent, for the handler to refuse.
      const pathParameters = Object.fromEntries(
        names.map((name, i) => {
          const raw = match[i + 1] ?? '';
          return [name, percentDecoded(raw) ?? raw];
        }),
      );
      return [{ route, pathParameters }];
    });
  }

  return (method: string, path: string): PatternMatch<R> | { allowed: HttpMethod[] } | undefined => {
    const candidates = matchPath(path);
    const exact = candidates.find((c) => c.route.method === method);
    if (exact) return exact;
    if (candidates.length === 0) return undefined;
    return { allowed: [...new Set(candidates.map((c) => c.route.method))] };
  };
}
