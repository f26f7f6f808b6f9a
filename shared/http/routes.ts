/**
 * The route table, built from the operation declarations: what the CDK stack routes, the local HTTP
 * adapter dispatches with, and the fallback uses to tell 404 from 405.
 */
import type { RouteDeclaration } from '#shared/api/operation.ts';
import { OPERATION_LIST, type Operation } from '#shared/api/operations/index.ts';
import { type PatternMatch, routeMatcher } from './route-matching.ts';

export interface Route extends RouteDeclaration {
  operation: Operation;
}

export const ROUTES: readonly Route[] = OPERATION_LIST.flatMap((operation) =>
  operation.routes.map((route): Route => ({ ...route, operation })),
);

export type RouteMatch = PatternMatch<Route>;

/** The route for a request, or the methods the path allows when only the method is wrong. */
export const resolveRoute = routeMatcher(ROUTES);
