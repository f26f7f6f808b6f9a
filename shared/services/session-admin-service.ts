/** The sessions list of the administration area, and ending a session by hand. */
import { deleteSession, findSession, storedSessionsPage } from '#shared/data/session-repository.ts';
import { findUsers } from '#shared/data/user-repository.ts';
import { NotFoundError } from '#shared/domain/errors.ts';
import type { ListPage } from '#shared/domain/list-element.ts';
import { sessionLapse, sessionStanding } from '#shared/domain/session-life.ts';
import { type Caller, type SessionView, toPrincipal } from '#shared/domain/user.ts';
import { type CursorRequest, cursorPage } from './paging.ts';
import { requireSystemAdmin } from './require-system-admin.ts';
import { currentSettings } from './settings-service.ts';

/**
 * Live sessions, oldest first, a page at a time: those a token would be accepted for now, judged by the
 * rule authentication enforces (domain/session-life.ts) with the settings in force, each with the end it
 * would enforce. A read takes at most `readSize` stored sessions and the users of those whose times have
 * not ended them; ended ones not yet deleted are left out, and the page reads on past them (paging.ts).
 */
export async function sessionsPage(
  caller: Caller,
  query: CursorRequest,
  now = new Date(),
): Promise<ListPage<SessionView>> {
  requireSystemAdmin(caller);
  const nowMs = now.getTime();
  return cursorPage('sessions', 'createdAt', query, async (limit, after, readSize) => {
    const page = await storedSessionsPage(readSize, after);
    // After the page: a cursor that is not one of this list's is refused before anything is read.
    const settings = await currentSettings(nowMs);
    // Sessions their own times have ended need no user read.
    const timely = page.entries.filter(({ session }) => !sessionLapse(session, settings, nowMs));
    const users = await findUsers([...new Set(timely.map(({ session }) => session.principalId))]);
    const byId = new Map(users.map((u) => [u.principalId, u]));
    const live = timely.flatMap(({ session, position }) => {
      const standing = sessionStanding(session, byId.get(session.principalId), settings, nowMs);
      return standing.alive ? [{ session, position, standing }] : [];
    });
    const mine = live.slice(0, limit);
    const afterLast = mine.at(-1)?.position;
    // page.next may be an ended session: only reading on starts there.
    const next = live.length > limit ? afterLast : page.next;
    const results = mine.map(({ session, standing }) => ({
      sessionId: session.sessionId,
      user: toPrincipal(standing.user),
      createdAt: session.createdAt,
      lastSeenAt: session.lastSeenAt,
      expiresAt: new Date(standing.endsAt).toISOString(),
      userAgent: session.userAgent,
      sourceIp: session.sourceIp,
    }));
    return { results, ...(next ? { next } : {}), ...(afterLast ? { afterLast } : {}) };
  });
}

export async function endSession(caller: Caller, sessionId: string): Promise<void> {
  requireSystemAdmin(caller);
  if (!(await findSession(sessionId)))
    throw new NotFoundError('SESSION_NOT_FOUND', `No session ${sessionId}`);
  await deleteSession(sessionId);
}
