import { contractOperation } from '#shared/api/contract-operation.ts';
import { deleteNodeContract } from '#shared/api/contracts.ts';
import { toBaseElement } from '#shared/domain/node.ts';
import { header } from '#shared/http/request-headers.ts';
import { json } from '#shared/http/responses.ts';
import { deleteNode } from '#shared/services/node-service.ts';

/** DELETE /api/v1/items/{nodeId}: soft-deletes the object and its subtree; answers the deleted nodes. */
export const handler = contractOperation(
  'deleteNode',
  deleteNodeContract,
  async ({ caller, path, event }) => {
    const deleted = await deleteNode(caller, path.nodeId.toUpperCase(), header(event, 'if-match'));
    return json(200, deleted.map(toBaseElement), { 'cache-control': 'no-store' });
  },
);
