import { contractOperation } from '#shared/api/contract-operation.ts';
import { listUsersContract } from '#shared/api/contracts.ts';
import { json } from '#shared/http/responses.ts';
import { usersPage } from '#shared/services/user-admin-service.ts';

/** GET /api/v1/admin/users: the users of the repository (system administrators). */
export const handler = contractOperation('listUsers', listUsersContract, async ({ caller, query }) =>
  json(200, await usersPage(caller, query), { 'cache-control': 'no-store' }),
);
