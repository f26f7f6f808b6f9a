import { API_PREFIX } from '#shared/api/operation.ts';
import { listNodes } from '#shared/api/operations/lists.ts';
import { TYPED_LISTS } from '#shared/domain/typed-lists.ts';
import { handle } from '#shared/http/operation.ts';
import { json } from '#shared/http/responses.ts';
import {
  type ListTarget,
  listMaturity,
  listObjects,
  startChildrenList,
} from '#shared/services/list-service.ts';

const typedByRouteKey = new Map(TYPED_LISTS.map((list) => [`GET ${API_PREFIX}${list.path}`, list]));

/** GET /list, GET /list/{nodeId} and the 14 per-type list paths of spec §4.7: one operation. */
export const handler = handle(
  listNodes,
  // Only GET /list/{nodeId} names a node: a folder's children are read beside the session check.
  {
    prefetch: async ({ path, query }, { principalId }) =>
      path.nodeId ? startChildrenList(path.nodeId, query, principalId) : undefined,
  },
  async ({ caller, query, path, event, prefetched }) => {
    const typed = typedByRouteKey.get(event.routeKey);
    const headers = { 'cache-control': 'no-cache, private' };
    if (typed?.kind === 'maturity') return json(200, await listMaturity(caller, query), headers);
    const target: ListTarget = typed
      ? { kind: 'typed', list: typed }
      : path.nodeId
        ? { kind: 'children', parentId: path.nodeId }
        : { kind: 'all' };
    const started = await prefetched;
    return json(200, await listObjects(caller, target, query, started ? { started } : {}), headers);
  },
);
