import { contractOperation } from '#shared/api/contract-operation.ts';
import { listNodesContract } from '#shared/api/contracts.ts';
import { json } from '#shared/http/responses.ts';
import { listEnvironments } from '#shared/services/list-service.ts';

/** GET /api/v1/list?nodeType=ENVIRONMENT: the environments of the library, paged. */
export const handler = contractOperation('listNodes', listNodesContract, async ({ caller, query }) =>
  json(200, await listEnvironments(caller, query), { 'cache-control': 'no-cache, private' }),
);
