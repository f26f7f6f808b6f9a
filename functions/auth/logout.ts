import { logout } from '#shared/api/operations/auth.ts';
import { clearedAuthCookies } from '#shared/http/auth-cookies.ts';
import { handle } from '#shared/http/operation.ts';
import { overHttps } from '#shared/http/request-headers.ts';
import { empty } from '#shared/http/responses.ts';
import { logout as endSession } from '#shared/services/authentication.ts';

/** POST /api/v1/logout: ends the caller's session; its token is refused from now on. */
export const handler = handle(logout, async ({ caller, event }) => {
  await endSession(caller);
  return { ...empty(204, { 'cache-control': 'no-store' }), cookies: clearedAuthCookies(overHttps(event)) };
});
