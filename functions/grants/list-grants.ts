import { listGrants } from '#shared/api/operations/grants.ts';
import { handle } from '#shared/http/operation.ts';
import { json } from '#shared/http/responses.ts';
import { grantsOn } from '#shared/services/grant-service.ts';

/** GET /api/v1/items/{nodeId}/grants: the roles granted on an environment or folder. */
export const handler = handle(listGrants, async ({ caller, path, query }) =>
  json(200, await grantsOn(caller, path.nodeId, query), { 'cache-control': 'no-store' }),
);
