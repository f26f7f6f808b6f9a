import { API_PREFIX } from '#shared/api/operation.ts';
import { apiDocs } from '#shared/api/operations/service.ts';
import { REFERENCE_INITIALIZER, REFERENCE_PAGE, readReferenceAsset } from '#shared/api/reference-assets.ts';
import { NotFoundError } from '#shared/domain/errors.ts';
import { handle } from '#shared/http/operation.ts';
import type { HttpResult } from '#shared/http/types.ts';

const REFERENCE = `${API_PREFIX}/swagger`;
const CACHE = 'public, max-age=300';
// Swagger UI needs inline styles; everything else comes from this origin.
const PAGE_SECURITY = {
  'content-security-policy':
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
};

let document: string | undefined;

const text = (body: string, mediaType: string, extra: Record<string, string> = {}): HttpResult => ({
  statusCode: 200,
  headers: { 'content-type': mediaType, 'cache-control': CACHE, ...extra },
  body,
});

/** GET /api/v1/swagger/ (Swagger UI), /api/v1/swagger/openapi.json and the UI's own files. */
export const handler = handle(apiDocs, async ({ path, event }) => {
  if (event.rawPath.replace(/\/+$/, '') === `${REFERENCE}/openapi.json`) {
    // Loaded on the first ask: it takes every operation's schemas, which the page and its files need not.
    document ??= JSON.stringify((await import('#shared/api/openapi.ts')).buildOpenApiDocument());
    return text(document, 'application/json');
  }
  if (!path.file) {
    // Relative asset URLs need the trailing slash.
    if (!event.rawPath.endsWith('/')) {
      return { statusCode: 301, headers: { location: `${REFERENCE}/`, 'cache-control': CACHE }, body: '' };
    }
    return text(REFERENCE_PAGE, 'text/html; charset=utf-8', PAGE_SECURITY);
  }
  if (path.file === 'swagger-initializer.js')
    return text(REFERENCE_INITIALIZER, 'text/javascript; charset=utf-8');
  const asset = readReferenceAsset(path.file);
  if (!asset) throw new NotFoundError('ROUTE_NOT_FOUND', `The reference has no file ${path.file}`);
  return {
    statusCode: 200,
    headers: { 'content-type': asset.mediaType, 'cache-control': CACHE },
    body: asset.body.toString('base64'),
    isBase64Encoded: true,
  };
});
