/**
 * The route table: the single source the CDK stack builds its routes and functions from, the local
 * HTTP adapter dispatches with, and the fallback uses to tell 404 from 405.
 */

import { TYPED_LISTS } from '#shared/domain/typed-lists.ts';
import { TYPED_RETRIEVES } from '#shared/domain/typed-retrieves.ts';
import { percentDecoded } from './percent-encoding.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

/** What an operation's function may touch; the stack grants exactly this. */
export interface OperationAccess {
  table: 'none' | 'read' | 'readWrite';
  bucket: 'none' | 'read' | 'readWrite';
  /** kms:Sign for the token signer (login); every authenticated function may read the public key. */
  signsTokens: boolean;
  /**
   * Authenticated operations read the session and user, and may touch or end the session: the stack
   * grants those writes on SESSION# items only, even to read-only operations.
   */
  verifiesTokens: boolean;
}

export interface OperationDefinition {
  /** Handler module, relative to the project root; it exports `handler`. */
  entry: string;
  access: OperationAccess;
  /** Memory of the function, MB (login hashes passwords with scrypt: 128 MiB and CPU). */
  memoryMb?: number;
  /** The function serves the Swagger UI files, which are copied next to its bundle. */
  servesReferenceAssets?: boolean;
}

const authenticated = (table: OperationAccess['table']): OperationAccess => ({
  table,
  bucket: 'none',
  signsTokens: false,
  verifiesTokens: true,
});

export const OPERATIONS = {
  login: {
    entry: 'functions/auth/login.ts',
    access: { table: 'readWrite', bucket: 'none', signsTokens: true, verifiesTokens: false },
    memoryMb: 1024,
  },
  logout: { entry: 'functions/auth/logout.ts', access: authenticated('read') },
  createNode: { entry: 'functions/nodes/create-node.ts', access: authenticated('readWrite') },
  getNode: { entry: 'functions/nodes/get-node.ts', access: authenticated('read') },
  updateNode: { entry: 'functions/nodes/update-node.ts', access: authenticated('readWrite') },
  deleteNode: { entry: 'functions/nodes/delete-node.ts', access: authenticated('readWrite') },
  listNodes: { entry: 'functions/lists/list-nodes.ts', access: authenticated('read') },
  listUsers: { entry: 'functions/admin/list-users.ts', access: authenticated('read') },
  createUser: { entry: 'functions/admin/create-user.ts', access: authenticated('readWrite'), memoryMb: 1024 },
  updateUser: { entry: 'functions/admin/update-user.ts', access: authenticated('readWrite'), memoryMb: 1024 },
  changePassword: {
    entry: 'functions/users/change-password.ts',
    access: authenticated('readWrite'),
    memoryMb: 1024,
  },
  listGrants: { entry: 'functions/grants/list-grants.ts', access: authenticated('read') },
  grantRole: { entry: 'functions/grants/grant-role.ts', access: authenticated('readWrite') },
  revokeRole: { entry: 'functions/grants/revoke-role.ts', access: authenticated('readWrite') },
  listSessions: { entry: 'functions/admin/list-sessions.ts', access: authenticated('read') },
  endSession: { entry: 'functions/admin/end-session.ts', access: authenticated('read') },
  getSettings: { entry: 'functions/admin/get-settings.ts', access: authenticated('read') },
  putSettings: { entry: 'functions/admin/put-settings.ts', access: authenticated('readWrite') },
  createActions: { entry: 'functions/actions/create-actions.ts', access: authenticated('readWrite') },
  myActions: { entry: 'functions/actions/my-actions.ts', access: authenticated('read') },
  getAction: { entry: 'functions/actions/get-action.ts', access: authenticated('read') },
  completeAction: { entry: 'functions/actions/complete-action.ts', access: authenticated('readWrite') },
  getTypedNode: { entry: 'functions/nodes/get-typed-node.ts', access: authenticated('read') },
  apiDocs: {
    entry: 'functions/docs/api-docs.ts',
    access: { table: 'none', bucket: 'none', signsTokens: false, verifiesTokens: false },
    servesReferenceAssets: true,
  },
  routeNotFound: {
    entry: 'functions/fallback/route-not-found.ts',
    access: { table: 'none', bucket: 'none', signsTokens: false, verifiesTokens: false },
  },
} as const satisfies Record<string, OperationDefinition>;

export type OperationName = keyof typeof OPERATIONS;

export interface Route {
  method: HttpMethod;
  /** API Gateway route path; `{name}` is a path parameter. */
  path: string;
  operation: OperationName;
  /** operationId in the OpenAPI document when several routes share an operation (default: the operation). */
  id?: string;
  /** Tag and summary in the reference when they differ from the operation's (per-type routes). */
  tag?: string;
  summary?: string;
}

export const API_PREFIX = '/api/v1';

export const ROUTES: readonly Route[] = [
  { method: 'POST', path: `${API_PREFIX}/login/local`, operation: 'login' },
  // Spec §5: the sample exchange logs in without the version prefix.
  { method: 'POST', path: '/login/local', operation: 'login', id: 'loginUnversioned' },
  { method: 'POST', path: `${API_PREFIX}/logout`, operation: 'logout' },
  { method: 'POST', path: `${API_PREFIX}/items`, operation: 'createNode' },
  { method: 'GET', path: `${API_PREFIX}/items/{nodeId}`, operation: 'getNode' },
  { method: 'PUT', path: `${API_PREFIX}/items/{nodeId}`, operation: 'updateNode' },
  { method: 'DELETE', path: `${API_PREFIX}/items/{nodeId}`, operation: 'deleteNode' },
  { method: 'GET', path: `${API_PREFIX}/list`, operation: 'listNodes' },
  {
    method: 'GET',
    path: `${API_PREFIX}/list/{nodeId}`,
    operation: 'listNodes',
    id: 'listChildren',
    summary: 'List the children of an object',
  },
  ...TYPED_LISTS.map(
    (typed): Route => ({
      method: 'GET',
      path: `${API_PREFIX}${typed.path}`,
      operation: 'listNodes',
      id: `list${typed.path.replace(/\/list$|-list$/, '').replace(/[/-](\w)/g, (_, c: string) => c.toUpperCase())}`,
      tag: typed.tag,
      summary: `List ${typed.label}`,
    }),
  ),
  { method: 'GET', path: `${API_PREFIX}/items/{nodeId}/grants`, operation: 'listGrants' },
  { method: 'PUT', path: `${API_PREFIX}/items/{nodeId}/grants/{principalId}`, operation: 'grantRole' },
  { method: 'DELETE', path: `${API_PREFIX}/items/{nodeId}/grants/{principalId}`, operation: 'revokeRole' },
  { method: 'GET', path: `${API_PREFIX}/admin/users`, operation: 'listUsers' },
  { method: 'POST', path: `${API_PREFIX}/admin/users`, operation: 'createUser' },
  { method: 'PATCH', path: `${API_PREFIX}/admin/users/{principalId}`, operation: 'updateUser' },
  { method: 'PUT', path: `${API_PREFIX}/users/me/password`, operation: 'changePassword' },
  { method: 'GET', path: `${API_PREFIX}/admin/sessions`, operation: 'listSessions' },
  { method: 'DELETE', path: `${API_PREFIX}/admin/sessions/{sessionId}`, operation: 'endSession' },
  { method: 'GET', path: `${API_PREFIX}/admin/settings`, operation: 'getSettings' },
  { method: 'PUT', path: `${API_PREFIX}/admin/settings`, operation: 'putSettings' },
  { method: 'POST', path: `${API_PREFIX}/admin/actions`, operation: 'createActions' },
  { method: 'GET', path: `${API_PREFIX}/admin/actions/{actionId}`, operation: 'getAction' },
  { method: 'GET', path: `${API_PREFIX}/users/me/actions`, operation: 'myActions' },
  { method: 'POST', path: `${API_PREFIX}/users/me/actions/{actionId}/done`, operation: 'completeAction' },
  ...TYPED_RETRIEVES.map(
    (typed): Route => ({
      method: 'GET',
      path: `${API_PREFIX}${typed.path}`,
      operation: 'getTypedNode',
      id: `get${typed.label.replace(/(^|[\s-])(\w)/g, (_, __, c: string) => c.toUpperCase())}`,
      tag: typed.tag,
      summary: `Retrieve a ${typed.label}`,
    }),
  ),
  { method: 'GET', path: `${API_PREFIX}/swagger`, operation: 'apiDocs', id: 'apiReferencePage' },
  { method: 'GET', path: `${API_PREFIX}/swagger/openapi.json`, operation: 'apiDocs', id: 'openApiDocument' },
  { method: 'GET', path: `${API_PREFIX}/swagger/{file}`, operation: 'apiDocs', id: 'apiReferenceAsset' },
];

/** Unmatched requests go to this operation (API Gateway's `$default` route). */
export const FALLBACK_OPERATION: OperationName = 'routeNotFound';

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
