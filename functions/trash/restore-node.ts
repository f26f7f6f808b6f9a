import { restoreNode } from '#shared/api/operations/trash.ts';
import { toBaseElement } from '#shared/domain/node.ts';
import { handle } from '#shared/http/operation.ts';
import { json } from '#shared/http/responses.ts';
import { restoreSubtree } from '#shared/services/trash-service.ts';

/** POST /api/v1/items/{nodeId}/restore: a deleted subtree back as it was. */
export const handler = handle(restoreNode, async ({ caller, path }) =>
  json(200, (await restoreSubtree(caller, path.nodeId)).map(toBaseElement), { 'cache-control': 'no-store' }),
);
