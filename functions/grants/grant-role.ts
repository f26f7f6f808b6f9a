import { contractOperation } from '#shared/api/contract-operation.ts';
import { grantRoleContract } from '#shared/api/contracts.ts';
import { json } from '#shared/http/responses.ts';
import { grantRole } from '#shared/services/grant-service.ts';

/** PUT /api/v1/items/{nodeId}/grants/{principalId}: grants (or replaces) a user's role on the subtree. */
export const handler = contractOperation('grantRole', grantRoleContract, async ({ caller, path, body }) =>
  json(200, await grantRole(caller, path.nodeId.toUpperCase(), path.principalId, body.role), {
    'cache-control': 'no-store',
  }),
);
