import { contractOperation } from '#shared/api/contract-operation.ts';
import { revokeRoleContract } from '#shared/api/contracts.ts';
import { empty } from '#shared/http/responses.ts';
import { revokeRole } from '#shared/services/grant-service.ts';

/** DELETE /api/v1/items/{nodeId}/grants/{principalId}: revokes a user's role on the subtree. */
export const handler = contractOperation('revokeRole', revokeRoleContract, async ({ caller, path }) => {
  await revokeRole(caller, path.nodeId.toUpperCase(), path.principalId);
  return empty(204, { 'cache-control': 'no-store' });
});
