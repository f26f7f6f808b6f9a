import { API_PREFIX } from '#shared/api/operation.ts';
import { getTypedNode } from '#shared/api/operations/node-reads.ts';
import { etagOf } from '#shared/domain/node.ts';
import { evaluatePreconditions } from '#shared/domain/preconditions.ts';
import { TYPED_RETRIEVES } from '#shared/domain/typed-retrieves.ts';
import { handle } from '#shared/http/operation.ts';
import { preconditionsOf } from '#shared/http/request-headers.ts';
import { json } from '#shared/http/responses.ts';
import { readNode } from '#shared/services/node-reads.ts';
import * as typedNodes from '#shared/services/typed-node-service.ts';
import { nodeHeaders } from './node-headers.ts';

const byRouteKey = new Map(TYPED_RETRIEVES.map((typed) => [`GET ${API_PREFIX}${typed.path}`, typed]));

/** The 14 per-type retrieve paths of spec §4.4 (e.g. GET /api/v1/document/documents/{documentId}). */
export const handler = handle(
  getTypedNode,
  // Each route carries one id: the object is read beside the session check, judged after.
  {
    prefetch: async ({ path, query }) => {
      const nodeId = Object.values(path).find((id) => id !== undefined);
      return nodeId === undefined ? null : readNode(nodeId, query.draft);
    },
  },
  async ({ caller, path, query, event, prefetched }) => {
    const typed = byRouteKey.get(event.routeKey);
    const nodeId = typed && path[typed.param];
    if (!typed || !nodeId) throw new Error(`getTypedNode serves no route ${event.routeKey}`);
    const element = await typedNodes.getTypedNode(caller, nodeId, typed.nodeTypes, query.draft, prefetched);
    // If-Match alone: this view also holds children and names that change without the object's version,
    // so its ETag cannot say the client's copy is current (If-None-Match, a 304, is not taken here).
    evaluatePreconditions({ ifMatch: preconditionsOf(event).ifMatch }, etagOf(element), 'read');
    return json(200, element, nodeHeaders(element));
  },
);
