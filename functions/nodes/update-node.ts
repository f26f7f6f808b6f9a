import { contractOperation } from '#shared/api/contract-operation.ts';
import { updateNodeContract } from '#shared/api/contracts.ts';
import { toBaseElement } from '#shared/domain/node.ts';
import { header } from '#shared/http/request-headers.ts';
import { json } from '#shared/http/responses.ts';
import { updateNode } from '#shared/services/node-service.ts';
import { nodeHeaders } from './node-headers.ts';

/** PUT /api/v1/items/{nodeId}: replaces the working copy; the body quotes the current nodeVersionId. */
export const handler = contractOperation(
  'updateNode',
  updateNodeContract,
  async ({ caller, path, body, event }) => {
    const node = await updateNode(caller, path.nodeId.toUpperCase(), body, header(event, 'if-match'));
    return json(200, toBaseElement(node), nodeHeaders(node));
  },
);
