/**
 * The cross-origin policy: browser apps on the allow-listed origins (CORS_ORIGINS, per stage) may call
 * the API with credentials. The CDK stack configures API Gateway's CORS from these lists and the local
 * adapter answers preflights from them, so both behave alike.
 */
import type { HttpResult } from './types.ts';

export const CORS_ALLOWED_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export const CORS_ALLOWED_HEADERS = [
  'content-type',
  'authorization',
  'if-match',
  'if-none-match',
  'idempotency-key',
  // A download answers a part of its file (206) and If-Range, as a page resuming or seeking asks.
  'range',
  'if-range',
];
// A download's (and its HEAD's) headers are what a page reading a file needs.
export const CORS_EXPOSED_HEADERS = [
  'etag',
  'location',
  'retry-after',
  'idempotent-replayed',
  'content-disposition',
  'content-range',
  'accept-ranges',
];
export const CORS_MAX_AGE_SECONDS = 600;

/**
 * `result` with `field` added to its Vary (whatever the case of the name it was set under), once.
 */
export function withVary(result: HttpResult, field: string): HttpResult {
  const headers = { ...result.headers };
  const names = Object.keys(headers).filter((name) => name.toLowerCase() === 'vary');
  const fields = names.flatMap((name) => String(headers[name]).split(','));
  for (const name of names) delete headers[name];
  const listed = fields.map((f) => f.trim()).filter(Boolean);
  const has = listed.some((f) => f === '*' || f.toLowerCase() === field.toLowerCase());
  headers.vary = (has ? listed : [...listed, field]).join(', ');
  return { ...result, headers };
}

/**
 * With an allow-list, every answer depends on the request's Origin (an allowed one gets the CORS headers,
 * another none), so every answer says so in Vary: else a shared cache could hand an allowed origin the
 * copy it kept for another, without Access-Control-Allow-Origin (Fetch, "CORS protocol and HTTP caches").
 */
export function varyByOrigin(result: HttpResult, allowed: readonly string[]): HttpResult {
  return allowed.length > 0 ? withVary(result, 'Origin') : result;
}

/** Headers answering a request from `origin`, or none when it is not allowed. */
export function corsHeaders(origin: string | undefined, allowed: readonly string[]): Record<string, string> {
  if (!origin || !allowed.includes(origin)) return {};
  return {
    'access-control-allow-origin': origin,
    'access-control-allow-credentials': 'true',
    'access-control-expose-headers': CORS_EXPOSED_HEADERS.join(','),
  };
}

export function preflightHeaders(
  origin: string | undefined,
  allowed: readonly string[],
): Record<string, string> {
  const headers = corsHeaders(origin, allowed);
  if (!headers['access-control-allow-origin']) return {};
  return {
    ...headers,
    'access-control-allow-methods': CORS_ALLOWED_METHODS.join(','),
    'access-control-allow-headers': CORS_ALLOWED_HEADERS.join(','),
    'access-control-max-age': String(CORS_MAX_AGE_SECONDS),
  };
}
