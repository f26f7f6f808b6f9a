import { revokeRole } from '#shared/api/operations/grants.ts';
import { handle } from '#shared/http/operation.ts';
import { empty } from '#shared/http/responses.ts';
import * as grants from '#shared/services/grant-service.ts';

/** DELETE /api/v1/items/{nodeId}/grants/{principalId}: revokes a user's role on the subtree. */
export const handler = handle(revokeRole, async ({ caller, path }) => {
  await grants.revokeRole(caller, path.nodeId, path.principalId);
  return empty(204, { 'cache-control': 'no-store' });
});
