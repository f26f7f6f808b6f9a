import { contractOperation } from '#shared/api/contract-operation.ts';
import { getTypedNodeContract } from '#shared/api/contracts.ts';
import { flag } from '#shared/domain/node-payloads.ts';
import { TYPED_RETRIEVES } from '#shared/domain/typed-retrieves.ts';
import { json } from '#shared/http/responses.ts';
import { API_PREFIX } from '#shared/http/routes.ts';
import { getTypedNode } from '#shared/services/typed-node-service.ts';
import { nodeHeaders } from './node-headers.ts';

const byRouteKey = new Map(TYPED_RETRIEVES.map((typed) => [`GET ${API_PREFIX}${typed.path}`, typed]));

/** The 14 per-type retrieve paths of spec §4.4 (e.g. GET /api/v1/document/documents/{documentId}). */
export const handler = contractOperation(
  'getTypedNode',
  getTypedNodeContract,
  async ({ caller, path, query, event }) => {
    const typed = byRouteKey.get(event.routeKey);
    const nodeId = typed && path[typed.param];
    if (!typed || !nodeId) throw new Error(`getTypedNode serves no route ${event.routeKey}`);
    const element = await getTypedNode(
      caller,
      nodeId.toUpperCase(),
      typed.nodeTypes,
      flag(query.draft, true),
    );
    return json(200, element, nodeHeaders(element));
  },
);
