import { contractOperation } from '#shared/api/contract-operation.ts';
import { changePasswordContract } from '#shared/api/contracts.ts';
import { empty } from '#shared/http/responses.ts';
import { changeOwnPassword } from '#shared/services/user-admin-service.ts';

/** PUT /api/v1/users/me/password: the caller's own password; their other sessions end. */
export const handler = contractOperation(
  'changePassword',
  changePasswordContract,
  async ({ caller, body }) => {
    await changeOwnPassword(caller, body.oldPassword, body.newPassword);
    return empty(204, { 'cache-control': 'no-store' });
  },
);
