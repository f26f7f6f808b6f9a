import { contractOperation } from '#shared/api/contract-operation.ts';
import { endSessionContract } from '#shared/api/contracts.ts';
import { empty } from '#shared/http/responses.ts';
import { endSession } from '#shared/services/session-admin-service.ts';

/** DELETE /api/v1/admin/sessions/{sessionId}: ends a session; its token is refused from now on. */
export const handler = contractOperation('endSession', endSessionContract, async ({ caller, path }) => {
  await endSession(caller, path.sessionId);
  return empty(204, { 'cache-control': 'no-store' });
});
