/**
 * Session checks a warm function instance remembers for a few seconds (SESSION_RECHECK_SECONDS, default 5),
 * so a burst of requests (upload chunks, a dashboard's fan-out, a sync client paging) pays one session read
 * instead of one per request. What is remembered is the session and its user as read; every request still
 * runs every check on them (lifetime, idle timeout, disabled user, password change), so time-based ends are
 * exact. What the bound delays is news from elsewhere: a logout, a revoked session, a disabled user, a
 * changed password or grant reaches the other warm instances within SESSION_RECHECK_SECONDS. The instance
 * that makes such a change forgets what it remembered at once (the repositories call `forget…`), and 0
 * turns remembering off.
 */
import type { Session, User } from '#shared/domain/user.ts';

interface Remembered {
  session: Session;
  user: User;
  readAtMs: number;
}

/** An instance serves a bounded number of sessions; beyond it the oldest are forgotten. */
const MAX_REMEMBERED = 10_000;
const remembered = new Map<string, Remembered>();

/** The session and user as read at most `maxAgeMs` ago, if this instance read them. */
export function recallSession(
  sessionId: string,
  principalId: string,
  nowMs: number,
  maxAgeMs: number,
): { session: Session; user: User } | undefined {
  const entry = remembered.get(sessionId);
  if (!entry) return undefined;
  if (
    nowMs - entry.readAtMs >= maxAgeMs ||
    nowMs < entry.readAtMs ||
    entry.user.principalId !== principalId
  ) {
    remembered.delete(sessionId);
    return undefined;
  }
  return { session: entry.session, user: entry.user };
}

export function rememberSession(session: Session, user: User, readAtMs: number): void {
  remembered.delete(session.sessionId);
  remembered.set(session.sessionId, { session, user, readAtMs });
  if (remembered.size > MAX_REMEMBERED) {
    const oldest = remembered.keys().next().value;
    if (oldest !== undefined) remembered.delete(oldest);
  }
}

/** The session's lastSeenAt was written: remember it as written. */
export function sessionTouched(sessionId: string, at: string): void {
  const entry = remembered.get(sessionId);
  if (entry) entry.session = { ...entry.session, lastSeenAt: at };
}

export function forgetSession(sessionId: string): void {
  remembered.delete(sessionId);
}

/** The user changed (status, password, grants): forget every session of theirs. */
export function forgetSessionsOf(principalId: string): void {
  for (const [sessionId, entry] of remembered) {
    if (entry.user.principalId === principalId) remembered.delete(sessionId);
  }
}
