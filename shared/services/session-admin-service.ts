/** The sessions list of the administration area, and ending a session by hand. */
import { deleteSession, findSession, listLiveSessionsPage } from '#shared/data/session-repository.ts';
import { findUsers } from '#shared/data/user-repository.ts';
import { NotFoundError } from '#shared/domain/errors.ts';
import type { ListPage } from '#shared/domain/list-element.ts';
import { type Caller, type SessionView, toPrincipal } from '#shared/domain/user.ts';
import { type CursorRequest, cursorPage } from './paging.ts';
import { requireSystemAdmin } from './require-system-admin.ts';

/** Live sessions, oldest first, a page at a time: a page reads at most pageSize sessions and their users. */
export async function sessionsPage(caller: Caller, query: CursorRequest): Promise<ListPage<SessionView>> {
  requireSystemAdmin(caller);
  const now = new Date().toISOString();
  return cursorPage('sessions', 'createdAt', query, async (limit, after) => {
    const { sessions, next } = await listLiveSessionsPage(now, limit, after);
    const users = await findUsers([...new Set(sessions.map((s) => s.principalId))]);
    const byId = new Map(users.map((u) => [u.principalId, toPrincipal(u)]));
    const results = sessions.map((s) => ({
      sessionId: s.sessionId,
      user: byId.get(s.principalId) ?? null,
      createdAt: s.createdAt,
      lastSeenAt: s.lastSeenAt,
      expiresAt: s.expiresAt,
      userAgent: s.userAgent,
      sourceIp: s.sourceIp,
    }));
    return { results, ...(next ? { next } : {}) };
  });
}

export async function endSession(caller: Caller, sessionId: string): Promise<void> {
  requireSystemAdmin(caller);
  if (!(await findSession(sessionId)))
    throw new NotFoundError('SESSION_NOT_FOUND', `No session ${sessionId}`);
  await deleteSession(sessionId);
}
