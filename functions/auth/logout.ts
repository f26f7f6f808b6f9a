import { contractOperation } from '#shared/api/contract-operation.ts';
import { logoutContract } from '#shared/api/contracts.ts';
import { clearedAuthCookies } from '#shared/http/auth-cookies.ts';
import { overHttps } from '#shared/http/request-headers.ts';
import { empty } from '#shared/http/responses.ts';
import { logout } from '#shared/services/auth-service.ts';

/** POST /api/v1/logout: ends the caller's session; its token is refused from now on. */
export const handler = contractOperation('logout', logoutContract, async ({ caller, event }) => {
  await logout(caller);
  return { ...empty(204, { 'cache-control': 'no-store' }), cookies: clearedAuthCookies(overHttps(event)) };
});
