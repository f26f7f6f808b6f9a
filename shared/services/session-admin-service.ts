/** The sessions list of the administration area, and ending a session by hand. */
import { deleteSession, findSession, listSessions } from '#shared/data/session-repository.ts';
import { listUsers } from '#shared/data/user-repository.ts';
import { NotFoundError } from '#shared/domain/errors.ts';
import { type Caller, type SessionView, toPrincipal } from '#shared/domain/user.ts';
import { type Page, type PageRequest, pageOf } from './paging.ts';
import { requireSystemAdmin } from './require-system-admin.ts';

export async function sessionsPage(caller: Caller, query: PageRequest): Promise<Page<SessionView>> {
  requireSystemAdmin(caller);
  const now = new Date().toISOString();
  const [sessions, users] = await Promise.all([listSessions(), listUsers()]);
  const byId = new Map(users.map((u) => [u.principalId, toPrincipal(u)]));
  const live = sessions
    .filter((s) => s.expiresAt > now)
    .map((s) => ({
      sessionId: s.sessionId,
      user: byId.get(s.principalId) ?? null,
      createdAt: s.createdAt,
      lastSeenAt: s.lastSeenAt,
      expiresAt: s.expiresAt,
      userAgent: s.userAgent,
      sourceIp: s.sourceIp,
    }));
  return pageOf(live, 'createdAt', query);
}

export async function endSession(caller: Caller, sessionId: string): Promise<void> {
  requireSystemAdmin(caller);
  if (!(await findSession(sessionId)))
    throw new NotFoundError('SESSION_NOT_FOUND', `No session ${sessionId}`);
  await deleteSession(sessionId);
}
