import type { Preconditions } from '#shared/domain/preconditions.ts';
import { percentDecoded } from './percent-encoding.ts';
import type { HttpEvent } from './types.ts';

/** Header lookup; API Gateway HTTP APIs (and the local adapter) deliver header names lower-cased. */
export function header(event: HttpEvent, name: string): string | undefined {
  return event.headers?.[name.toLowerCase()];
}

/** The conditional headers (RFC 9110 §13) a node or file route evaluates, in `evaluatePreconditions`. */
export function preconditionsOf(event: HttpEvent): Preconditions {
  return { ifMatch: header(event, 'if-match'), ifNoneMatch: header(event, 'if-none-match') };
}

/**
 * A cookie's value, from the event's `cookies` array (HTTP API payload 2.0). A value that is not
 * well-formed percent-encoding is returned as sent: an access token like that simply fails verification.
 */
export function cookie(event: HttpEvent, name: string): string | undefined {
  for (const pair of event.cookies ?? []) {
    const eq = pair.indexOf('=');
    if (eq <= 0 || pair.slice(0, eq).trim() !== name) continue;
    const value = pair.slice(eq + 1).trim();
    return percentDecoded(value) ?? value;
  }
  return undefined;
}

export function bearerToken(event: HttpEvent): string | undefined {
  const authorization = header(event, 'authorization');
  return (authorization && /^Bearer\s+(\S+)$/i.exec(authorization)?.[1]) || undefined;
}

/** The access token: `Authorization: Bearer` wins over the `access_token` cookie. */
export function accessToken(event: HttpEvent): string | undefined {
  return bearerToken(event) || cookie(event, 'access_token') || undefined;
}

/** True when the client reached the API over HTTPS (API Gateway sets x-forwarded-proto). */
export function overHttps(event: HttpEvent): boolean {
  return header(event, 'x-forwarded-proto') === 'https';
}
