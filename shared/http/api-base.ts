import { API_PREFIX } from '#shared/api/operation.ts';
import { config } from '#shared/config/index.ts';
import { overHttps } from './request-headers.ts';
import type { HttpEvent } from './types.ts';

/**
 * This installation's API address, e.g. https://api.example.com/api/v1, for links in answers: the stage's
 * configured public address (PUBLIC_BASE_URL), else the domain API Gateway says the request reached
 * (requestContext.domainName, which API Gateway sets itself; never the client's Host header). Links are
 * built when an answer is made, never stored, so no request can plant its own host in another user's links.
 */
export function apiBase(event: HttpEvent): string {
  const configured = config().publicBaseUrl;
  if (configured) return `${configured}${API_PREFIX}`;
  return `${overHttps(event) ? 'https' : 'http'}://${event.requestContext.domainName}${API_PREFIX}`;
}
