import { listRelations } from '#shared/api/operations/relations.ts';
import { handle } from '#shared/http/operation.ts';
import { json } from '#shared/http/responses.ts';
import { relationsOf } from '#shared/services/relation-service.ts';

/** GET /api/v1/items/{nodeId}/relations: the object's relations, both directions, a page at a time. */
export const handler = handle(listRelations, async ({ caller, path, query }) =>
  json(200, await relationsOf(caller, path.nodeId, query), { 'cache-control': 'no-store' }),
);
