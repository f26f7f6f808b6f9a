import { routeNotFound } from '#shared/api/operations/service.ts';
import { MethodNotAllowedError, NotFoundError } from '#shared/domain/errors.ts';
import { handle } from '#shared/http/operation.ts';
import { routeMatcher } from '#shared/http/route-matching.ts';
import { routePatterns } from '#shared/http/route-patterns.ts';

const resolveRoute = routeMatcher(await routePatterns());

/** API Gateway's `$default` route: a problem+json 404 for unknown paths, 405 for a wrong method. */
export const handler = handle(routeNotFound, async ({ event }) => {
  const method = event.requestContext.http.method;
  const path = event.rawPath;
  const resolved = resolveRoute(method, path);
  if (resolved && 'allowed' in resolved) throw new MethodNotAllowedError(method, path, resolved.allowed);
  throw new NotFoundError('ROUTE_NOT_FOUND', `No operation answers ${method} ${path}`);
});
