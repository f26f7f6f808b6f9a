import { endSession } from '#shared/api/operations/admin.ts';
import { handle } from '#shared/http/operation.ts';
import { empty } from '#shared/http/responses.ts';
import * as sessions from '#shared/services/session-admin-service.ts';

/** DELETE /api/v1/admin/sessions/{sessionId}: ends a session; its token is refused from now on. */
export const handler = handle(endSession, async ({ caller, path }) => {
  await sessions.endSession(caller, path.sessionId);
  return empty(204, { 'cache-control': 'no-store' });
});
