import { createUser } from '#shared/api/operations/admin.ts';
import { handle } from '#shared/http/operation.ts';
import { json } from '#shared/http/responses.ts';
import { addUser } from '#shared/services/user-admin-service.ts';

/** POST /api/v1/admin/users: creates a user (system administrators). */
export const handler = handle(createUser, async ({ caller, body }) =>
  json(201, await addUser(caller, body), { 'cache-control': 'no-store' }),
);
