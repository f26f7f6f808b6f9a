import { contractOperation } from '#shared/api/contract-operation.ts';
import { getNodeContract } from '#shared/api/contracts.ts';
import { toBaseElement, toDetailedElement } from '#shared/domain/node.ts';
import { flag } from '#shared/domain/node-payloads.ts';
import { ifNoneMatchHits } from '#shared/domain/preconditions.ts';
import { header } from '#shared/http/request-headers.ts';
import { empty, json } from '#shared/http/responses.ts';
import { getNode } from '#shared/services/node-service.ts';
import { nodeHeaders } from './node-headers.ts';

/** GET /api/v1/items/{nodeId}: the working copy (draft=true, default) or the published version. */
export const handler = contractOperation(
  'getNode',
  getNodeContract,
  async ({ caller, path, query, event }) => {
    const node = await getNode(caller, path.nodeId.toUpperCase(), flag(query.draft, true));
    if (ifNoneMatchHits(header(event, 'if-none-match'), node.nodeVersionId))
      return empty(304, nodeHeaders(node));
    const body = flag(query.detail, false) ? toDetailedElement(node) : toBaseElement(node);
    return json(200, body, nodeHeaders(node));
  },
);
