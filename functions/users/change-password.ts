import { changePassword } from '#shared/api/operations/auth.ts';
import { handle } from '#shared/http/operation.ts';
import { empty } from '#shared/http/responses.ts';
import { changeOwnPassword } from '#shared/services/user-admin-service.ts';

/** PUT /api/v1/users/me/password: the caller's own password; their other sessions end. */
export const handler = handle(changePassword, async ({ caller, body }) => {
  await changeOwnPassword(caller, body.oldPassword, body.newPassword);
  return empty(204, { 'cache-control': 'no-store' });
});
