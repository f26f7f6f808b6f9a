import { listSessions } from '#shared/api/operations/admin.ts';
import { handle } from '#shared/http/operation.ts';
import { json } from '#shared/http/responses.ts';
import { sessionsPage } from '#shared/services/session-admin-service.ts';

/** GET /api/v1/admin/sessions: live sessions (system administrators). */
export const handler = handle(listSessions, async ({ caller, query }) =>
  json(200, await sessionsPage(caller, query), { 'cache-control': 'no-store' }),
);
