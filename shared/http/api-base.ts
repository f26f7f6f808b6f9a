import { header, overHttps } from './request-headers.ts';
import { API_PREFIX } from './routes.ts';
import type { HttpEvent } from './types.ts';

/** This installation's API address as the client reached it, e.g. https://api.example.com/api/v1. */
export function apiBase(event: HttpEvent): string {
  const host = header(event, 'host') ?? event.requestContext.domainName;
  return `${overHttps(event) ? 'https' : 'http'}://${host}${API_PREFIX}`;
}
