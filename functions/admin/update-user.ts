import { updateUser } from '#shared/api/operations/admin.ts';
import { handle } from '#shared/http/operation.ts';
import { json } from '#shared/http/responses.ts';
import { changeUser } from '#shared/services/user-admin-service.ts';

/** PATCH /api/v1/admin/users/{principalId}: changes profile, role, status or password (system administrators). */
export const handler = handle(updateUser, async ({ caller, path, body }) =>
  json(200, await changeUser(caller, path.principalId, body), { 'cache-control': 'no-store' }),
);
