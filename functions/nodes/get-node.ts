import { getNode } from '#shared/api/operations/node-reads.ts';
import { etagOf, toBaseElement } from '#shared/domain/node.ts';
import { toDetailedElement } from '#shared/domain/node-elements.ts';
import { canReadParentOf } from '#shared/domain/permissions.ts';
import { evaluatePreconditions } from '#shared/domain/preconditions.ts';
import { handle } from '#shared/http/operation.ts';
import { preconditionsOf } from '#shared/http/request-headers.ts';
import { empty, json } from '#shared/http/responses.ts';
import * as nodes from '#shared/services/node-reads.ts';
import { nodeHeaders } from './node-headers.ts';

/** GET /api/v1/items/{nodeId}: the working copy (draft=true, default) or the published version. */
export const handler = handle(
  getNode,
  // The object is read beside the session check; the caller's right to it is judged after.
  { prefetch: ({ path, query }) => nodes.readNode(path.nodeId, query.draft) },
  async ({ caller, path, query, event, prefetched }) => {
    const node = await nodes.getNode(caller, path.nodeId, query.draft, prefetched);
    if (evaluatePreconditions(preconditionsOf(event), etagOf(node), 'read') === 'notModified')
      return empty(304, nodeHeaders(node));
    const element = query.detail
      ? toDetailedElement(node, canReadParentOf(caller, node))
      : toBaseElement(node);
    return json(200, element, nodeHeaders(node));
  },
);
