import { linkRelation } from '#shared/api/operations/relations.ts';
import { handle } from '#shared/http/operation.ts';
import { json } from '#shared/http/responses.ts';
import * as relations from '#shared/services/relation-service.ts';

/** PUT /api/v1/items/{nodeId}/relations/{relation}/{targetId}: relates the object (idempotent). */
export const handler = handle(linkRelation, async ({ caller, path }) =>
  json(200, await relations.linkRelation(caller, path.nodeId, path.relation, path.targetId), {
    'cache-control': 'no-store',
  }),
);
