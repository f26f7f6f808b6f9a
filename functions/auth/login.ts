import { login } from '#shared/api/operations/auth.ts';
import { loginCookies } from '#shared/http/auth-cookies.ts';
import { handle } from '#shared/http/operation.ts';
import { header, overHttps } from '#shared/http/request-headers.ts';
import { empty } from '#shared/http/responses.ts';
import * as auth from '#shared/services/auth-service.ts';

/** POST /login/local (and /api/v1/login/local): 302 to `/` with the access token as a cookie. */
export const handler = handle(login, async ({ body, event }) => {
  const { accessToken, session } = await auth.login(body.username, body.password, {
    userAgent: header(event, 'user-agent') ?? null,
    sourceIp: event.requestContext.http.sourceIp ?? null,
  });
  const maxAgeSeconds = (Date.parse(session.expiresAt) - Date.now()) / 1000;
  return {
    ...empty(302, { location: '/', 'cache-control': 'no-store' }),
    cookies: loginCookies(accessToken, maxAgeSeconds, overHttps(event)),
  };
});
