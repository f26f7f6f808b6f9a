import { publishNode } from '#shared/api/operations/versions.ts';
import { toBaseElement } from '#shared/domain/node.ts';
import { handle } from '#shared/http/operation.ts';
import { preconditionsOf } from '#shared/http/request-headers.ts';
import { json } from '#shared/http/responses.ts';
import { publishNode as publish } from '#shared/services/publish-service.ts';

/** POST /api/v1/items/{nodeId}/publish: the object (with recursive, its subtree) becomes its next major version. */
export const handler = handle(publishNode, async ({ caller, path, query, body, event }) => {
  const published = await publish(caller, path.nodeId, { body, ...preconditionsOf(event) }, query.recursive);
  return json(200, published.map(toBaseElement), { 'cache-control': 'no-store' });
});
