import { unlinkRelation } from '#shared/api/operations/relations.ts';
import { handle } from '#shared/http/operation.ts';
import { empty } from '#shared/http/responses.ts';
import * as relations from '#shared/services/relation-service.ts';

/** DELETE /api/v1/items/{nodeId}/relations/{relation}/{targetId}: removes the relation. */
export const handler = handle(unlinkRelation, async ({ caller, path }) => {
  await relations.unlinkRelation(caller, path.nodeId, path.relation, path.targetId);
  return empty(204, { 'cache-control': 'no-store' });
});
