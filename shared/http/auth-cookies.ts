/** Cookies set by login (spec §5) and cleared by logout. */

interface CookieOptions {
  secure: boolean;
  maxAgeSeconds: number;
  httpOnly: boolean;
}

function serialize(name: string, value: string, { secure, maxAgeSeconds, httpOnly }: CookieOptions): string {
  return [
    `${name}=${encodeURIComponent(value)}`,
    'Path=/',
    `Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}`,
    'SameSite=Lax',
    ...(httpOnly ? ['HttpOnly'] : []),
    ...(secure ? ['Secure'] : []),
  ].join('; ');
}

/** `access_token` is HttpOnly (scripts cannot read it); `loginsuccess` is for the web app to see. */
export function loginCookies(accessToken: string, maxAgeSeconds: number, secure: boolean): string[] {
  return [
    serialize('loginsuccess', 'true', { secure, maxAgeSeconds, httpOnly: false }),
    serialize('access_token', accessToken, { secure, maxAgeSeconds, httpOnly: true }),
  ];
}

export function clearedAuthCookies(secure: boolean): string[] {
  return [
    serialize('loginsuccess', '', { secure, maxAgeSeconds: 0, httpOnly: false }),
    serialize('access_token', '', { secure, maxAgeSeconds: 0, httpOnly: true }),
  ];
}
