import { contractOperation } from '#shared/api/contract-operation.ts';
import { loginContract } from '#shared/api/contracts.ts';
import { loginCookies } from '#shared/http/auth-cookies.ts';
import { header, overHttps } from '#shared/http/request-headers.ts';
import { empty } from '#shared/http/responses.ts';
import { login } from '#shared/services/auth-service.ts';

/** POST /login/local (and /api/v1/login/local): 302 to `/` with the access token as a cookie. */
export const handler = contractOperation('login', loginContract, async ({ body, event }) => {
  const { accessToken, session } = await login(body.username, body.password, {
    userAgent: header(event, 'user-agent') ?? null,
    sourceIp: event.requestContext.http.sourceIp ?? null,
  });
  const maxAgeSeconds = (Date.parse(session.expiresAt) - Date.now()) / 1000;
  return {
    ...empty(302, { location: '/', 'cache-control': 'no-store' }),
    cookies: loginCookies(accessToken, maxAgeSeconds, overHttps(event)),
  };
});
