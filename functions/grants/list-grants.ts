import { contractOperation } from '#shared/api/contract-operation.ts';
import { listGrantsContract } from '#shared/api/contracts.ts';
import { json } from '#shared/http/responses.ts';
import { grantsOn } from '#shared/services/grant-service.ts';

/** GET /api/v1/items/{nodeId}/grants: the roles granted on an environment or folder. */
export const handler = contractOperation('listGrants', listGrantsContract, async ({ caller, path }) =>
  json(200, await grantsOn(caller, path.nodeId.toUpperCase()), { 'cache-control': 'no-store' }),
);
