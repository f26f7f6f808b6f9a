/** The interactive reference, and the answer to every request no route matches. */
import * as z from 'zod/mini';
import { API_PREFIX, defineOperation, NO_STORAGE, problem } from '../operation.ts';

export const apiDocs = defineOperation({
  name: 'apiDocs',
  handler: 'functions/docs/api-docs.ts',
  routes: [
    { method: 'GET', path: `${API_PREFIX}/swagger`, id: 'apiReferencePage' },
    { method: 'GET', path: `${API_PREFIX}/swagger/openapi.json`, id: 'openApiDocument' },
    { method: 'GET', path: `${API_PREFIX}/swagger/{file}`, id: 'apiReferenceAsset' },
  ],
  access: NO_STORAGE,
  servesReferenceAssets: true,
  summary: 'Interactive API reference',
  description: 'Swagger UI and this OpenAPI document, served by the API itself (no CDN).',
  tag: 'Common',
  authenticated: false,
  request: {
    // A file of the reference: a plain file name, never a path.
    path: z.strictObject({
      file: z.optional(z.string().check(z.regex(/^[\w][\w.-]*$/, 'must be a file name of the reference'))),
    }),
  },
  responses: {
    200: { description: 'The page, an asset of it, or the OpenAPI document', body: { mediaType: '*/*' } },
    301: {
      description: 'Redirect to the reference at /api/v1/swagger/',
      headers: { Location: '/api/v1/swagger/' },
    },
    400: problem('Not a file name'),
    404: problem('No such file'),
  },
});

/** API Gateway's `$default` route: no route of its own. */
export const routeNotFound = defineOperation({
  name: 'routeNotFound',
  handler: 'functions/fallback/route-not-found.ts',
  routes: [],
  access: NO_STORAGE,
  summary: 'Any other request',
  tag: 'Common',
  authenticated: false,
  // Any query: no route took the request, so none of its parameters is judged (the 404 or 405 says why).
  request: { query: z.unknown() },
  responses: { 404: problem('No such route'), 405: problem('Method not allowed on this path (see Allow)') },
});
