import { listUsers } from '#shared/api/operations/admin.ts';
import { handle } from '#shared/http/operation.ts';
import { json } from '#shared/http/responses.ts';
import { usersPage } from '#shared/services/user-admin-service.ts';

/** GET /api/v1/admin/users: the users of the repository (system administrators). */
export const handler = handle(listUsers, async ({ caller, query }) =>
  json(200, await usersPage(caller, query), { 'cache-control': 'no-store' }),
);
