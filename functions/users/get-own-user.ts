import { getOwnUser } from '#shared/api/operations/auth.ts';
import { handle } from '#shared/http/operation.ts';
import { json } from '#shared/http/responses.ts';
import { ownUser, readOwnUser } from '#shared/services/user-admin-service.ts';

/** GET /api/v1/users/me: the caller's own user, with the grants they hold now. */
export const handler = handle(
  getOwnUser,
  // The caller's user record is read beside the session check.
  { prefetch: (_input, { principalId }) => readOwnUser(principalId) },
  async ({ prefetched }) => json(200, await ownUser(prefetched), { 'cache-control': 'no-store' }),
);
