/**
 * The route table, built from the operation declarations: what the CDK stack routes, the local HTTP
 * adapter dispatches with, and the fallback uses to tell 404 from 405.
 */
import type { HttpMethod, RouteDeclaration } from '#shared/api/operation.ts';
import { OPERATION_LIST, type Operation } from '#shared/api/operations/index.ts';
import { percentDecoded } from './percent-encoding.ts';

export interface Route extends RouteDeclaration {
  operation: Operation;
}

export const ROUTES: readonly Route[] = OPERATION_LIST.flatMap((operation) =>
  operation.routes.map((route): Route => ({ ...route, operation })),
);

export interface RouteMatch {
  route: Route;
  pathParameters: Record<string, string>;
}

const compiled = ROUTES.map((route) => {
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

/** Literal segments win over parameters, as in API Gateway (`/swagger/openapi.json` before `/swagger/{file}`). */
const bySpecificity = [...compiled].sort((a, b) => a.names.length - b.names.length);

function matchPath(rawPath: string) {
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

/** The route for a request, or the methods the path allows when only the method is wrong. */
export function resolveRoute(
  method: string,
  path: string,
): RouteMatch | { allowed: HttpMethod[] } | undefined {
  const candidates = matchPath(path);
  const exact = candidates.find((c) => c.route.method === method);
  if (exact) return exact;
  if (candidates.length === 0) return undefined;
  return { allowed: [...new Set(candidates.map((c) => c.route.method))] };
}
