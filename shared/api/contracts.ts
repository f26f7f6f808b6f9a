/**
 * The interface of every operation of the route table: summary, tag, request schemas and responses.
 * Handlers validate with these very schemas and the OpenAPI document is generated from them, so the
 * reference cannot drift from what the service does. A new route lands with its contract here.
 */
import * as z from 'zod/mini';
import { actionPathSchema, createActionsPayloadSchema, myActionsQuerySchema } from '#shared/domain/action.ts';
import { grantPathSchema, grantPayloadSchema, sessionPathSchema } from '#shared/domain/grant-payloads.ts';
import { listPathSchema, listQuerySchema } from '#shared/domain/list-query.ts';
import { loginPayloadSchema } from '#shared/domain/login-payload.ts';
import {
  createNodePayloadSchema,
  deleteNodePayloadSchema,
  nodePathSchema,
  retrieveQuerySchema,
  updateNodePayloadSchema,
  writeQuerySchema,
} from '#shared/domain/node-payloads.ts';
import { settingsSchema } from '#shared/domain/settings.ts';
import { typedPathSchema, typedQuerySchema } from '#shared/domain/typed-retrieves.ts';
import {
  changePasswordPayloadSchema,
  createUserPayloadSchema,
  pageQuerySchema,
  principalPathSchema,
  updateUserPayloadSchema,
} from '#shared/domain/user-payloads.ts';
import type { OperationName } from '#shared/http/routes.ts';
import { docsFileSchema } from './docs-request.ts';
import { REQUEST_EXAMPLES } from './examples.ts';
import {
  actionSchema,
  actionsPageSchema,
  actionsSchema,
  analyzerPageSchema,
  baseElementSchema,
  deletedNodesSchema,
  grantSchema,
  grantsSchema,
  listPageSchema,
  maturityPageSchema,
  retrievedNodeSchema,
  sessionsPageSchema,
  typedElementSchema,
  usersPageSchema,
  userViewSchema,
} from './response-schemas.ts';

export type Tag = 'Common' | 'Action' | 'User';

export interface ResponseContract {
  description: string;
  /** JSON body schema; 'problem' for application/problem+json; a media type for other bodies. */
  body?: z.ZodMiniType | 'problem' | { mediaType: string };
  headers?: Record<string, string>;
}

export interface OperationContract {
  summary: string;
  description?: string;
  tag: Tag;
  authenticated: boolean;
  request: {
    body?: z.ZodMiniType;
    bodyOptional?: boolean;
    query?: z.ZodMiniType;
    path?: z.ZodMiniType;
    examples?: Record<string, { summary: string; value: unknown }>;
  };
  responses: Record<number, ResponseContract>;
}

const problem = (description: string): ResponseContract => ({ description, body: 'problem' });

const CROSS_SITE = problem('A cookie-authenticated request from another site');

/** Failures every operation of its kind can answer. */
const COMMON_PROBLEMS = {
  500: problem('A bug: the body carries only the requestId to quote'),
  503: problem('Temporarily unavailable (throttling); retry after Retry-After seconds'),
};
const AUTHENTICATED_PROBLEMS = {
  401: problem('No token, an invalid or expired token, or an ended session'),
  ...COMMON_PROBLEMS,
};
const JSON_BODY_PROBLEMS = {
  400: problem('Invalid input: `errors` names each field (JSON path) and the rule it breaks'),
  413: problem('The body is larger than 256 KiB'),
  415: problem('The body is not sent as application/json'),
};

const ETAG = {
  ETag: 'Weak validator of the node: W/"<nodeVersionId>"',
  'Cache-Control': 'no-cache, no-transform, private',
};

export const loginContract = {
  summary: 'Log in with username and password',
  description:
    'Answers 302 to `/` with `Cache-Control: no-store` and the cookies `loginsuccess=true` and `access_token=<JWT>` ' +
    '(HttpOnly). Send the token back as that cookie or as `Authorization: Bearer <JWT>`.',
  tag: 'User',
  authenticated: false,
  request: { body: loginPayloadSchema, examples: REQUEST_EXAMPLES.login },
  responses: {
    302: {
      description: 'Logged in',
      headers: {
        Location: 'Always `/`',
        'Set-Cookie': 'loginsuccess=true; access_token=<JWT> (HttpOnly)',
        'Cache-Control': 'no-store',
      },
    },
    ...JSON_BODY_PROBLEMS,
    401: problem('Wrong username or password; no cookie is set'),
    429: problem(
      'TOO_MANY_LOGIN_ATTEMPTS: 5 failures for a username, or 100 from one address, within 15 minutes; wait Retry-After seconds',
    ),
    ...COMMON_PROBLEMS,
  },
} satisfies OperationContract;

export const logoutContract = {
  summary: 'End the session of the access token',
  tag: 'User',
  authenticated: true,
  request: {},
  responses: {
    204: {
      description: 'Session ended; the cookies are cleared',
      headers: { 'Set-Cookie': 'Cleared cookies' },
    },
    403: CROSS_SITE,
    ...AUTHENTICATED_PROBLEMS,
  },
} satisfies OperationContract;

export const createNodeContract = {
  summary: 'Create an object',
  description:
    'Creates an object under `parent` (an environment or folder, or the environment for items kept under one of its ' +
    'system roots). Environments (`nodeType: ENVIRONMENT`, no parent) are created by system administrators.',
  tag: 'Common',
  authenticated: true,
  request: {
    body: createNodePayloadSchema,
    query: writeQuerySchema,
    examples: REQUEST_EXAMPLES.createNode,
  },
  responses: {
    200: { description: 'The created object, version 0.0001', body: baseElementSchema, headers: ETAG },
    ...JSON_BODY_PROBLEMS,
    403: problem('Not permitted (environments: system administrators only)'),
    404: problem(
      'PARENT_NOT_FOUND: no such parent (or not visible to the caller), or it is being deleted or was deleted meanwhile',
    ),
    ...AUTHENTICATED_PROBLEMS,
  },
} satisfies OperationContract;

export const getNodeContract = {
  summary: 'Retrieve an object',
  description:
    '`draft=true` (default) answers the working copy, `draft=false` the last published version. `detail=true` adds ' +
    'the parent and the type-specific fields an update sends back. `If-None-Match` with the current ETag answers 304.',
  tag: 'Common',
  authenticated: true,
  request: { path: nodePathSchema, query: retrieveQuerySchema },
  responses: {
    200: {
      description: 'The object (with detail=true: the detailed object)',
      body: retrievedNodeSchema,
      headers: ETAG,
    },
    304: { description: 'The ETag in If-None-Match is current', headers: ETAG },
    400: problem('Malformed nodeId or query parameter'),
    404: problem('No such object (or deleted, or never published with draft=false)'),
    ...AUTHENTICATED_PROBLEMS,
  },
} satisfies OperationContract;

export const updateNodeContract = {
  summary: 'Update an object',
  description:
    'The body is the full structure of the object with the current `nodeVersionId`; optional fields left out are ' +
    'cleared, read-only fields of a retrieved object are ignored. A stale nodeVersionId answers 409 with ' +
    '`currentNodeVersionId`; `If-Match` is honoured (412).',
  tag: 'Common',
  authenticated: true,
  request: {
    path: nodePathSchema,
    query: writeQuerySchema,
    body: updateNodePayloadSchema,
    examples: REQUEST_EXAMPLES.updateNode,
  },
  responses: {
    200: {
      description: 'The updated object: new nodeVersionId, next version',
      body: baseElementSchema,
      headers: ETAG,
    },
    ...JSON_BODY_PROBLEMS,
    403: problem('Needs the editor role on the object or above it'),
    404: problem('No such object (or not visible to the caller)'),
    409: problem('VERSION_CONFLICT: the nodeVersionId is not the current one (see currentNodeVersionId)'),
    412: problem('If-Match does not name the current version'),
    ...AUTHENTICATED_PROBLEMS,
  },
} satisfies OperationContract;

export const deleteNodeContract = {
  summary: 'Delete an object and everything under it',
  description:
    'Soft delete of the object and its whole subtree; answers the deleted objects (`deleted: true`).',
  tag: 'Common',
  authenticated: true,
  request: {
    path: nodePathSchema,
    query: writeQuerySchema,
    body: deleteNodePayloadSchema,
    bodyOptional: true,
    examples: REQUEST_EXAMPLES.deleteNode,
  },
  responses: {
    200: { description: 'The deleted objects, the requested one first', body: deletedNodesSchema },
    ...JSON_BODY_PROBLEMS,
    403: problem('Not permitted (environments: system administrators only)'),
    404: problem('No such object'),
    409: problem('System roots are deleted only with their environment'),
    412: problem('If-Match does not name the current version'),
    ...AUTHENTICATED_PROBLEMS,
  },
} satisfies OperationContract;

export const listNodesContract = {
  summary: 'List objects',
  description: [
    '`GET /list`: every object the caller may read; `GET /list/{nodeId}`: the children of one object; the ' +
      'per-type paths: the items of one facet (for example `/process/list`: processes). Deleted objects are ' +
      'never listed.',
    '',
    '**Paging.** `pageSize` (default 50, at most 1000) and `currentPage` (from 1), or walk with `cursor`: ' +
      'pass each page’s `nextCursor` (null on the last page) to get the next one. A cursor resumes after the ' +
      'last object, so objects created or deleted during a walk do not shift it: each object that exists ' +
      'throughout the walk is returned exactly once. A page by number reads every index entry before it: ' +
      'use the cursor to go deep (currentPage may start at most 100000 objects in).',
    '',
    '**Sorting.** `sortKey` nodeId (default), name (case-insensitive), creationDate or modificationDate; ' +
      '`order` ASC (default) or DESC; ties are broken by nodeId.',
    '',
    '**Filters.** `nodeType` (repeatable, or comma-separated; on a per-type list, some of its types), ' +
      '`nodeStatus`, `name` (case-insensitive, contained in the name), `modifiedSince` (ISO 8601, at or ' +
      'after; with sortKey=modificationDate it is a range read, the way for sync clients), `draft=false` ' +
      '(only published objects, as published).',
    '',
    '**Totals.** `totalRecords` comes from counts the service keeps, never from counting. With a `name`, ' +
      '`modifiedSince` or `draft=false` filter, or on the analyzer list, no count is kept: `totalRecords` is ' +
      'then the number without that filter and `totalRecordsExact` is false, unless the page reaches the ' +
      'end of the list.',
    '',
    '**Governance.** `/governance/overview-list`: every governed object (the content items of all facets). ' +
      '`/governance/analyzer-list`: governed objects that need attention, each with `findings` ' +
      '(NEVER_PUBLISHED, UNPUBLISHED_CHANGES, NO_DESCRIPTION). `/governance/maturity-list`: one row per ' +
      'facet with its governed objects by status (paging parameters only).',
  ].join('\n'),
  tag: 'Common',
  authenticated: true,
  request: { path: listPathSchema, query: listQuerySchema },
  responses: {
    200: {
      description: 'A list page (analyzer and maturity lists: their own elements)',
      body: z.union([listPageSchema, analyzerPageSchema, maturityPageSchema]),
    },
    400: problem('Unknown or invalid query parameters, or a cursor of another query'),
    404: problem('GET /list/{nodeId}: no such object (or not visible to the caller)'),
    ...AUTHENTICATED_PROBLEMS,
  },
} satisfies OperationContract;

export const listUsersContract = {
  summary: 'List the users of the repository',
  description: 'System administrators only. Paged like lists (pageSize, currentPage), sorted by username.',
  tag: 'User',
  authenticated: true,
  request: { query: pageQuerySchema },
  responses: {
    200: { description: 'A page of users', body: usersPageSchema },
    400: problem('Invalid paging parameters'),
    403: problem('Not a system administrator'),
    ...AUTHENTICATED_PROBLEMS,
  },
} satisfies OperationContract;

export const createUserContract = {
  summary: 'Create a user',
  description:
    'System administrators only. Passwords have at least 12 characters and are stored as scrypt hashes.',
  tag: 'User',
  authenticated: true,
  request: { body: createUserPayloadSchema, examples: REQUEST_EXAMPLES.createUser },
  responses: {
    201: { description: 'The new user', body: userViewSchema },
    ...JSON_BODY_PROBLEMS,
    403: problem('Not a system administrator'),
    409: problem('USERNAME_TAKEN'),
    ...AUTHENTICATED_PROBLEMS,
  },
} satisfies OperationContract;

export const updateUserContract = {
  summary: 'Change a user: profile, system administrator role, status or password',
  description:
    'System administrators only; only the fields sent change. Disabling a user, or setting a new password, ends ' +
    'all of their sessions at once.',
  tag: 'User',
  authenticated: true,
  request: {
    path: principalPathSchema,
    body: updateUserPayloadSchema,
    examples: REQUEST_EXAMPLES.updateUser,
  },
  responses: {
    200: { description: 'The changed user', body: userViewSchema },
    ...JSON_BODY_PROBLEMS,
    403: problem('Not a system administrator'),
    404: problem('USER_NOT_FOUND'),
    409: problem('CANNOT_LOCK_OUT_SELF: an administrator cannot demote or disable themselves'),
    ...AUTHENTICATED_PROBLEMS,
  },
} satisfies OperationContract;

export const changePasswordContract = {
  summary: 'Change your own password',
  description: 'The old password is required; every other session of yours ends.',
  tag: 'User',
  authenticated: true,
  request: { body: changePasswordPayloadSchema },
  responses: {
    204: { description: 'Changed' },
    ...JSON_BODY_PROBLEMS,
    403: CROSS_SITE,
    ...AUTHENTICATED_PROBLEMS,
  },
} satisfies OperationContract;

export const listGrantsContract = {
  summary: 'Roles granted on an environment or folder',
  tag: 'Common',
  authenticated: true,
  request: { path: nodePathSchema },
  responses: {
    200: { description: 'The grants', body: grantsSchema },
    400: problem('Not an environment or folder'),
    403: problem('Needs the environment admin role'),
    404: problem('No such object'),
    ...AUTHENTICATED_PROBLEMS,
  },
} satisfies OperationContract;

export const grantRoleContract = {
  summary: 'Grant a role on an environment or folder',
  description:
    'READER, EDITOR or ENVIRONMENT_ADMIN, for the whole subtree. System administrators and environment admins.',
  tag: 'Common',
  authenticated: true,
  request: { path: grantPathSchema, body: grantPayloadSchema, examples: REQUEST_EXAMPLES.grantRole },
  responses: {
    200: { description: 'The grant', body: grantSchema },
    ...JSON_BODY_PROBLEMS,
    403: problem('Needs the environment admin role'),
    404: problem('No such object or user'),
    ...AUTHENTICATED_PROBLEMS,
  },
} satisfies OperationContract;

export const revokeRoleContract = {
  summary: 'Revoke a role',
  tag: 'Common',
  authenticated: true,
  request: { path: grantPathSchema },
  responses: {
    204: { description: 'Revoked' },
    400: problem('Not an environment or folder'),
    403: problem('Needs the environment admin role'),
    404: problem('No such object or grant'),
    ...AUTHENTICATED_PROBLEMS,
  },
} satisfies OperationContract;

export const listSessionsContract = {
  summary: 'Live sessions',
  description: 'System administrators only.',
  tag: 'User',
  authenticated: true,
  request: { query: pageQuerySchema },
  responses: {
    200: { description: 'A page of sessions, oldest first', body: sessionsPageSchema },
    400: problem('Invalid paging parameters'),
    403: problem('Not a system administrator'),
    ...AUTHENTICATED_PROBLEMS,
  },
} satisfies OperationContract;

export const endSessionContract = {
  summary: 'End a session',
  description: 'System administrators only. Its token is refused from the next request on.',
  tag: 'User',
  authenticated: true,
  request: { path: sessionPathSchema },
  responses: {
    204: { description: 'Ended' },
    403: problem('Not a system administrator'),
    404: problem('SESSION_NOT_FOUND'),
    ...AUTHENTICATED_PROBLEMS,
  },
} satisfies OperationContract;

export const getSettingsContract = {
  summary: 'Session settings',
  description:
    'SESSION_TIMEOUT: idle timeout, minutes (1–1440, default 30). WEBTOKEN_EXPIRES_IN: lifetime of a token and its ' +
    'session, days (1–30, default 1). System administrators only.',
  tag: 'User',
  authenticated: true,
  request: {},
  responses: {
    200: { description: 'The settings in force', body: settingsSchema },
    403: problem('Not a system administrator'),
    ...AUTHENTICATED_PROBLEMS,
  },
} satisfies OperationContract;

export const putSettingsContract = {
  summary: 'Change the session settings',
  description:
    'System administrators only. Every live session follows within a minute: the idle timeout at once, the lifetime ' +
    'as the earlier of its token expiry and login time plus the new lifetime.',
  tag: 'User',
  authenticated: true,
  request: { body: settingsSchema, examples: REQUEST_EXAMPLES.putSettings },
  responses: {
    200: { description: 'The settings now in force', body: settingsSchema },
    ...JSON_BODY_PROBLEMS,
    403: problem('Not a system administrator'),
    ...AUTHENTICATED_PROBLEMS,
  },
} satisfies OperationContract;

export const createActionsContract = {
  summary: 'Assign an action on an object to users',
  description:
    'One action per user (e.g. TRAINING on a process), due on `dueDate`. Needs the right to publish the object ' +
    '(environment admins and system administrators); `sentBy` is the caller.',
  tag: 'Action',
  authenticated: true,
  request: { body: createActionsPayloadSchema, examples: REQUEST_EXAMPLES.createActions },
  responses: {
    201: { description: 'The actions, one per user in request order', body: actionsSchema },
    ...JSON_BODY_PROBLEMS,
    403: problem('Not allowed to publish the object, or a cookie request from another site'),
    404: problem('No such object'),
    ...AUTHENTICATED_PROBLEMS,
  },
} satisfies OperationContract;

export const getActionContract = {
  summary: 'One action',
  description: 'For its assignee, its sender, those who may publish its object, and system administrators.',
  tag: 'Action',
  authenticated: true,
  request: { path: actionPathSchema },
  responses: {
    200: { description: 'The action', body: actionSchema },
    400: problem('Malformed action id'),
    404: problem('No such action (or not visible to the caller)'),
    ...AUTHENTICATED_PROBLEMS,
  },
} satisfies OperationContract;

export const myActionsContract = {
  summary: 'Your actions',
  description:
    'Only the caller’s own actions (an administrator cannot read another user’s here), by due date; filter by ' +
    '`status` (OPEN, DONE) and `dueBefore` / `dueAfter` (inclusive dates).',
  tag: 'Action',
  authenticated: true,
  request: { query: myActionsQuerySchema },
  responses: {
    200: { description: 'A page of actions', body: actionsPageSchema },
    400: problem('Invalid filter or paging parameter'),
    ...AUTHENTICATED_PROBLEMS,
  },
} satisfies OperationContract;

export const completeActionContract = {
  summary: 'Mark your action done',
  tag: 'Action',
  authenticated: true,
  request: { path: actionPathSchema },
  responses: {
    200: { description: 'The action, now DONE', body: actionSchema },
    400: problem('Malformed action id'),
    403: CROSS_SITE,
    404: problem('No such action of yours'),
    409: problem('ACTION_DONE: already done'),
    ...AUTHENTICATED_PROBLEMS,
  },
} satisfies OperationContract;

export const getTypedNodeContract = {
  summary: 'Retrieve an object of one type',
  description:
    'The object with its own `@type`, its parent as a NameElement and its type’s own fields (documents: ' +
    'documentType, url, fileInfo; processes: tasks and edges; entities: attributes). An id of another type, or of ' +
    'an object the caller may not read, is a 404. `draft=false` answers the published version.',
  tag: 'Common',
  authenticated: true,
  request: { path: typedPathSchema, query: typedQuerySchema },
  responses: {
    200: { description: 'The object', body: typedElementSchema, headers: ETAG },
    400: problem('Malformed id or query parameter'),
    404: problem('No object of this type with this id (or not visible to the caller)'),
    ...AUTHENTICATED_PROBLEMS,
  },
} satisfies OperationContract;

export const apiDocsContract = {
  summary: 'Interactive API reference',
  description: 'Swagger UI and this OpenAPI document, served by the API itself (no CDN).',
  tag: 'Common',
  authenticated: false,
  request: { path: docsFileSchema },
  responses: {
    200: { description: 'The page, an asset of it, or the OpenAPI document', body: { mediaType: '*/*' } },
    301: {
      description: 'Redirect to the reference at /api/v1/swagger/',
      headers: { Location: '/api/v1/swagger/' },
    },
    400: problem('Not a file name'),
    404: problem('No such file'),
    ...COMMON_PROBLEMS,
  },
} satisfies OperationContract;

export const routeNotFoundContract = {
  summary: 'Any other request',
  tag: 'Common',
  authenticated: false,
  request: {},
  responses: { 404: problem('No such route'), 405: problem('Method not allowed on this path (see Allow)') },
} satisfies OperationContract;

/** Every operation's contract, by operation name (the OpenAPI document is built from these). */
export const CONTRACTS = {
  login: loginContract,
  logout: logoutContract,
  createNode: createNodeContract,
  getNode: getNodeContract,
  updateNode: updateNodeContract,
  deleteNode: deleteNodeContract,
  listNodes: listNodesContract,
  listUsers: listUsersContract,
  createUser: createUserContract,
  updateUser: updateUserContract,
  changePassword: changePasswordContract,
  listGrants: listGrantsContract,
  grantRole: grantRoleContract,
  revokeRole: revokeRoleContract,
  listSessions: listSessionsContract,
  endSession: endSessionContract,
  getSettings: getSettingsContract,
  putSettings: putSettingsContract,
  createActions: createActionsContract,
  getAction: getActionContract,
  myActions: myActionsContract,
  completeAction: completeActionContract,
  getTypedNode: getTypedNodeContract,
  apiDocs: apiDocsContract,
  routeNotFound: routeNotFoundContract,
} satisfies Record<OperationName, OperationContract>;
