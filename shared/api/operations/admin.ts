/** Administration by system administrators: users, sessions and settings. */
import * as z from 'zod/mini';
import { uuidSchema } from '#shared/domain/schema-parts.ts';
import { settingsSchema } from '#shared/domain/settings.ts';
import { sessionsPageSchema, usersPageSchema, userViewSchema } from '#shared/domain/user.ts';
import { createUserPayloadSchema, updateUserPayloadSchema } from '#shared/domain/user-payloads.ts';
import { REQUEST_EXAMPLES } from '../examples.ts';
import { API_PREFIX, authenticated, defineOperation, problem } from '../operation.ts';
import { cursorQuerySchema } from '../params.ts';

const NOT_ADMIN = problem('Not a system administrator');

export const listUsers = defineOperation({
  name: 'listUsers',
  handler: 'functions/admin/list-users.ts',
  routes: [{ method: 'GET', path: `${API_PREFIX}/admin/users` }],
  access: authenticated('read'),
  summary: 'List the users of the repository',
  description:
    'System administrators only. Sorted by username; walked a page at a time like /list: `pageSize` (default 50, ' +
    'at most 1000), then each page’s `nextCursor` as `cursor`. totalRecords counts what has been walked ' +
    '(totalRecordsExact false) until the last page.',
  tag: 'User',
  request: { query: cursorQuerySchema },
  responses: {
    200: { description: 'A page of users', body: usersPageSchema },
    400: problem('Invalid paging parameters'),
    403: NOT_ADMIN,
  },
});

export const createUser = defineOperation({
  name: 'createUser',
  handler: 'functions/admin/create-user.ts',
  routes: [{ method: 'POST', path: `${API_PREFIX}/admin/users` }],
  access: authenticated('readWrite'),
  memoryMb: 1024,
  summary: 'Create a user',
  description:
    'System administrators only. Passwords have at least 12 characters and are stored as scrypt hashes.',
  tag: 'User',
  request: { body: createUserPayloadSchema, examples: REQUEST_EXAMPLES.createUser },
  responses: {
    201: { description: 'The new user', body: userViewSchema },
    403: NOT_ADMIN,
    409: problem('USERNAME_TAKEN'),
  },
});

export const updateUser = defineOperation({
  name: 'updateUser',
  handler: 'functions/admin/update-user.ts',
  routes: [{ method: 'PATCH', path: `${API_PREFIX}/admin/users/{principalId}` }],
  access: authenticated('readWrite'),
  memoryMb: 1024,
  summary: 'Change a user: profile, system administrator role, status or password',
  description:
    'System administrators only; only the fields sent change. Disabling a user, or setting a new password, ends ' +
    'all of their sessions at once.',
  tag: 'User',
  request: {
    path: z.strictObject({ principalId: uuidSchema }),
    body: updateUserPayloadSchema,
    examples: REQUEST_EXAMPLES.updateUser,
  },
  responses: {
    200: { description: 'The changed user', body: userViewSchema },
    403: NOT_ADMIN,
    404: problem('USER_NOT_FOUND'),
    409: problem('CANNOT_LOCK_OUT_SELF: an administrator cannot demote or disable themselves'),
  },
});

export const listSessions = defineOperation({
  name: 'listSessions',
  handler: 'functions/admin/list-sessions.ts',
  routes: [{ method: 'GET', path: `${API_PREFIX}/admin/sessions` }],
  access: authenticated('read'),
  summary: 'Live sessions',
  description:
    'System administrators only. The sessions a token would be accepted for now, judged as every request is with ' +
    'the settings in force (lifetime, idle timeout since `lastSeenAt`, active user, no password change since), ' +
    'each with the end the server enforces as `expiresAt` (the earlier of its token’s expiry and login time plus ' +
    'the WEBTOKEN_EXPIRES_IN in force). Oldest first; walked a page at a time like /list: `pageSize` (default 50, ' +
    'at most 1000), then each page’s `nextCursor` as `cursor`. Ended sessions not yet removed are left out and a ' +
    'page reads on past them, so it is short only where most of what it reads has ended, and empty only at the ' +
    'end; totalRecords counts what has been walked (totalRecordsExact false) until the last page.',
  tag: 'User',
  request: { query: cursorQuerySchema },
  responses: {
    200: { description: 'A page of sessions, oldest first', body: sessionsPageSchema },
    400: problem('Invalid paging parameters'),
    403: NOT_ADMIN,
  },
});

export const endSession = defineOperation({
  name: 'endSession',
  handler: 'functions/admin/end-session.ts',
  routes: [{ method: 'DELETE', path: `${API_PREFIX}/admin/sessions/{sessionId}` }],
  access: authenticated('read'),
  summary: 'End a session',
  description: 'System administrators only. Its token is refused from the next request on.',
  tag: 'User',
  request: { path: z.strictObject({ sessionId: uuidSchema }) },
  responses: {
    204: { description: 'Ended' },
    403: NOT_ADMIN,
    404: problem('SESSION_NOT_FOUND'),
  },
});

export const getSettings = defineOperation({
  name: 'getSettings',
  handler: 'functions/admin/get-settings.ts',
  routes: [{ method: 'GET', path: `${API_PREFIX}/admin/settings` }],
  access: authenticated('read'),
  summary: 'Session settings',
  description:
    'SESSION_TIMEOUT: idle timeout, minutes (1–1440, default 30). WEBTOKEN_EXPIRES_IN: lifetime of a token and its ' +
    'session, days (1–30, default 1). System administrators only.',
  tag: 'User',
  request: {},
  responses: {
    200: { description: 'The settings in force', body: settingsSchema },
    403: NOT_ADMIN,
  },
});

export const putSettings = defineOperation({
  name: 'putSettings',
  handler: 'functions/admin/put-settings.ts',
  routes: [{ method: 'PUT', path: `${API_PREFIX}/admin/settings` }],
  access: authenticated('readWrite'),
  summary: 'Change the session settings',
  description:
    'System administrators only. Every live session follows within a minute: the idle timeout at once, the lifetime ' +
    'as the earlier of its token expiry and login time plus the new lifetime.',
  tag: 'User',
  request: { body: settingsSchema, examples: REQUEST_EXAMPLES.putSettings },
  responses: {
    200: { description: 'The settings now in force', body: settingsSchema },
    403: NOT_ADMIN,
  },
});
