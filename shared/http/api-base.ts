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
  return `${installationBase(event, config().publicBaseUrl)}${API_PREFIX}`;
}

/** Where upload chunks go (spec §4.2 `{upload_url}/upload/`): UPLOAD_BASE_URL, else as the API's address. */
export function uploadUrl(event: HttpEvent): string {
  return `${installationBase(event, config().uploadBaseUrl ?? config().publicBaseUrl)}/upload/`;
}

function installationBase(event: HttpEvent, configured: string | undefined): string {
  return configured ?? `${overHttps(event) ? 'https' : 'http'}://${event.requestContext.domainName}`;
}
