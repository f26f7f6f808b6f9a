import { contractOperation } from '#shared/api/contract-operation.ts';
import { createNodeContract } from '#shared/api/contracts.ts';
import { toBaseElement } from '#shared/domain/node.ts';
import { json } from '#shared/http/responses.ts';
import { createNode } from '#shared/services/node-service.ts';
import { nodeHeaders } from './node-headers.ts';

/** POST /api/v1/items: creates an object under its parent (or an environment, for system administrators). */
export const handler = contractOperation('createNode', createNodeContract, async ({ caller, body }) => {
  const node = await createNode(caller, body);
  return json(200, toBaseElement(node), nodeHeaders(node));
});
