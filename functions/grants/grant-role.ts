import { grantRole } from '#shared/api/operations/grants.ts';
import { handle } from '#shared/http/operation.ts';
import { json } from '#shared/http/responses.ts';
import * as grants from '#shared/services/grant-service.ts';

/** PUT /api/v1/items/{nodeId}/grants/{principalId}: grants (or replaces) a user's role on the subtree. */
export const handler = handle(grantRole, async ({ caller, path, body }) =>
  json(200, await grants.grantRole(caller, path.nodeId, path.principalId, body.role), {
    'cache-control': 'no-store',
  }),
);
