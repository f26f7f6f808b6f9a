/**
 * Cookie-authenticated unsafe requests must come from the API's own site or an allow-listed origin:
 * a page elsewhere cannot make the browser send the cookie for it (CSRF). Bearer tokens are never sent
 * by a browser on its own, so Bearer calls are not checked.
 */

import { header } from './request-headers.ts';
import type { HttpEvent } from './types.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function isCrossSiteCookieRequest(event: HttpEvent, allowedOrigins: readonly string[]): boolean {
  if (SAFE_METHODS.has(event.requestContext.http.method)) return false;
  const origin = header(event, 'origin');
  if (origin && allowedOrigins.includes(origin)) return false;
  const fetchSite = header(event, 'sec-fetch-site');
  if (fetchSite) return fetchSite !== 'same-origin' && fetchSite !== 'none';
  if (origin) {
    // No Fetch Metadata (older browsers): compare the Origin's host with the Host the request was sent to.
    try {
      return new URL(origin).host !== header(event, 'host');
    } catch {
      return true;
    }
  }
  // Neither header: not a browser page (curl, server-to-server).
  return false;
}
