import { contractOperation } from '#shared/api/contract-operation.ts';
import { listNodesContract } from '#shared/api/contracts.ts';
import { TYPED_LISTS } from '#shared/domain/typed-lists.ts';
import { json } from '#shared/http/responses.ts';
import { API_PREFIX } from '#shared/http/routes.ts';
import { type ListTarget, listMaturity, listObjects } from '#shared/services/list-service.ts';

const typedByRouteKey = new Map(TYPED_LISTS.map((list) => [`GET ${API_PREFIX}${list.path}`, list]));

/** GET /list, GET /list/{nodeId} and the 14 per-type list paths of spec §4.7: one operation. */
export const handler = contractOperation(
  'listNodes',
  listNodesContract,
  async ({ caller, query, path, event }) => {
    const typed = typedByRouteKey.get(event.routeKey);
    const headers = { 'cache-control': 'no-cache, private' };
    if (typed?.kind === 'maturity') return json(200, await listMaturity(caller, query), headers);
    const target: ListTarget = typed
      ? { kind: 'typed', list: typed }
      : path.nodeId
        ? { kind: 'children', parentId: path.nodeId.toUpperCase() }
        : { kind: 'all' };
    return json(200, await listObjects(caller, target, query), headers);
  },
);
