import { contractOperation } from '#shared/api/contract-operation.ts';
import { createUserContract } from '#shared/api/contracts.ts';
import { json } from '#shared/http/responses.ts';
import { addUser } from '#shared/services/user-admin-service.ts';

/** POST /api/v1/admin/users: creates a user (system administrators). */
export const handler = contractOperation('createUser', createUserContract, async ({ caller, body }) =>
  json(201, await addUser(caller, body), { 'cache-control': 'no-store' }),
);
