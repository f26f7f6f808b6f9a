import { contractOperation } from '#shared/api/contract-operation.ts';
import { listSessionsContract } from '#shared/api/contracts.ts';
import { json } from '#shared/http/responses.ts';
import { sessionsPage } from '#shared/services/session-admin-service.ts';

/** GET /api/v1/admin/sessions: live sessions (system administrators). */
export const handler = contractOperation('listSessions', listSessionsContract, async ({ caller, query }) =>
  json(200, await sessionsPage(caller, query), { 'cache-control': 'no-store' }),
);
