import type { HttpResult } from './types.ts';

export function json(statusCode: number, body: unknown, headers: Record<string, string> = {}): HttpResult {
  return {
    statusCode,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  };
}

export function empty(statusCode: number, headers: Record<string, string> = {}): HttpResult {
  return { statusCode, headers, body: '' };
}

/** Node responses are private to the caller and must be revalidated (spec §4.4). */
export const NODE_CACHE_CONTROL = 'no-cache, no-transform, private';
