/** Login, logout, and a user's own record and password. */
import { loginPayloadSchema } from '#shared/domain/login-payload.ts';
import { LOGIN_THROTTLE } from '#shared/domain/login-throttle.ts';
import { userViewSchema } from '#shared/domain/user.ts';
import { changePasswordPayloadSchema } from '#shared/domain/user-payloads.ts';
import { REQUEST_EXAMPLES } from '../examples.ts';
import { API_PREFIX, authenticated, defineOperation, NO_STORAGE, problem } from '../operation.ts';

export const login = defineOperation({
  name: 'login',
  handler: 'functions/auth/login.ts',
  routes: [
    { method: 'POST', path: `${API_PREFIX}/login/local` },
    // Spec §5: the sample exchange logs in without the version prefix.
    { method: 'POST', path: '/login/local', id: 'loginUnversioned' },
  ],
  access: { ...NO_STORAGE, table: 'readWrite', signsTokens: true },
  memoryMb: 1024,
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
    401: problem('Wrong username or password; no cookie is set'),
    429: problem(
      `TOO_MANY_LOGIN_ATTEMPTS: ${LOGIN_THROTTLE.failuresPerUser} failures for a username, or ` +
        `${LOGIN_THROTTLE.failuresPerSource} from one address, within ${LOGIN_THROTTLE.windowSeconds / 60} minutes; ` +
        'wait Retry-After seconds',
    ),
  },
});

export const logout = defineOperation({
  name: 'logout',
  handler: 'functions/auth/logout.ts',
  routes: [{ method: 'POST', path: `${API_PREFIX}/logout` }],
  access: authenticated('read'),
  summary: 'End the session of the access token',
  tag: 'User',
  request: {},
  responses: {
    204: {
      description: 'Session ended; the cookies are cleared',
      headers: { 'Set-Cookie': 'Cleared cookies' },
    },
  },
});

export const getOwnUser = defineOperation({
  name: 'getOwnUser',
  handler: 'functions/users/get-own-user.ts',
  routes: [{ method: 'GET', path: `${API_PREFIX}/users/me` }],
  access: authenticated('read'),
  summary: 'Your own user: profile, roles and grants',
  description:
    'The caller as system administrators see users (never the password hash), read from the user record when ' +
    'asked: `grants` are the roles granted to you now, by the environment or folder they were granted on. A sync ' +
    'client reads them to tell whether a `REVOKED` subtree is still covered by another of your grants.',
  tag: 'User',
  request: {},
  responses: {
    200: {
      description: 'You',
      body: userViewSchema,
      headers: { 'Cache-Control': 'no-store' },
    },
  },
});

export const changePassword = defineOperation({
  name: 'changePassword',
  handler: 'functions/users/change-password.ts',
  routes: [{ method: 'PUT', path: `${API_PREFIX}/users/me/password` }],
  access: authenticated('readWrite'),
  memoryMb: 1024,
  summary: 'Change your own password',
  description:
    'The old password is required; every other session of yours ends. A wrong old password counts as a ' +
    'failed login of your username (the same throttle).',
  tag: 'User',
  request: { body: changePasswordPayloadSchema },
  responses: {
    204: { description: 'Changed' },
    429: problem(
      `TOO_MANY_LOGIN_ATTEMPTS: ${LOGIN_THROTTLE.failuresPerUser} failed logins or password checks of your ` +
        `username within ${LOGIN_THROTTLE.windowSeconds / 60} minutes; wait Retry-After seconds`,
    ),
  },
});
