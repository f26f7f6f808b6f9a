/** Roles granted on environments and folders. */
import * as z from 'zod/mini';
import { grantPayloadSchema } from '#shared/domain/grant-payloads.ts';
import { uuidSchema } from '#shared/domain/schema-parts.ts';
import { grantSchema, grantsPageSchema } from '#shared/domain/user.ts';
import { REQUEST_EXAMPLES } from '../examples.ts';
import { API_PREFIX, authenticated, defineOperation, problem } from '../operation.ts';
import { cursorQuerySchema, nodePathSchema } from '../params.ts';

const grantPathSchema = z.strictObject({ nodeId: uuidSchema, principalId: uuidSchema });
const NOT_ENVIRONMENT_ADMIN = problem('Needs the environment admin role');

export const listGrants = defineOperation({
  name: 'listGrants',
  handler: 'functions/grants/list-grants.ts',
  routes: [{ method: 'GET', path: `${API_PREFIX}/items/{nodeId}/grants` }],
  access: authenticated('read'),
  summary: 'Roles granted on an environment or folder',
  description:
    'By principalId, walked a page at a time like /list: `pageSize` (default 50, at most 1000), then each page’s ' +
    '`nextCursor` as `cursor`.',
  tag: 'Common',
  request: { path: nodePathSchema, query: cursorQuerySchema },
  responses: {
    200: { description: 'A page of grants', body: grantsPageSchema },
    400: problem('Not an environment or folder'),
    403: NOT_ENVIRONMENT_ADMIN,
    404: problem('No such object'),
  },
});

export const grantRole = defineOperation({
  name: 'grantRole',
  handler: 'functions/grants/grant-role.ts',
  routes: [{ method: 'PUT', path: `${API_PREFIX}/items/{nodeId}/grants/{principalId}` }],
  access: authenticated('readWrite'),
  summary: 'Grant a role on an environment or folder',
  description:
    'READER, EDITOR or ENVIRONMENT_ADMIN, for the whole subtree. System administrators and environment admins.',
  tag: 'Common',
  request: { path: grantPathSchema, body: grantPayloadSchema, examples: REQUEST_EXAMPLES.grantRole },
  responses: {
    200: { description: 'The grant', body: grantSchema },
    403: NOT_ENVIRONMENT_ADMIN,
    404: problem('No such object or user'),
  },
});

export const revokeRole = defineOperation({
  name: 'revokeRole',
  handler: 'functions/grants/revoke-role.ts',
  routes: [{ method: 'DELETE', path: `${API_PREFIX}/items/{nodeId}/grants/{principalId}` }],
  access: authenticated('readWrite'),
  summary: 'Revoke a role',
  tag: 'Common',
  request: { path: grantPathSchema },
  responses: {
    204: { description: 'Revoked' },
    400: problem('Not an environment or folder'),
    403: NOT_ENVIRONMENT_ADMIN,
    404: problem('No such object or grant'),
  },
});
