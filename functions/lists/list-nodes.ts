import { listQuerySchema } from '#shared/domain/list-query.ts';
import { operation } from '#shared/http/operation.ts';
import { json } from '#shared/http/responses.ts';
import { listEnvironments } from '#shared/services/list-service.ts';

/** GET /api/v1/list?nodeType=ENVIRONMENT: the environments of the library, paged. */
export const handler = operation({ name: 'listNodes', query: listQuerySchema }, async ({ query }) =>
  json(200, await listEnvironments(query), { 'cache-control': 'no-cache, private' }),
);
