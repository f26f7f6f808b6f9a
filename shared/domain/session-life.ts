/**
 * When a server-side session is alive, judged with the settings in force: the one rule that every request
 * is authenticated by (services/authentication.ts) and that the administrators' sessions list shows
 * (services/session-admin-service.ts), so the list holds exactly the sessions a token would be accepted
 * for, with the end that would be enforced. The checks on the session's own times come apart from those on
 * its user, so a list can leave out ended sessions before it reads their users.
 */
import type { Settings } from './settings.ts';
import type { Session, User } from './user.ts';

export const MINUTE = 60_000;
export const DAY = 24 * 60 * MINUTE;

/** Why a session has ended; `final` when nothing can revive it (its item may be deleted). */
export interface SessionEnd {
  why: string;
  final: boolean;
}

/**
 * When the session's lifetime is over (epoch ms): the earlier of its token's expiry and its login time
 * plus the lifetime in force (WEBTOKEN_EXPIRES_IN may have been lowered since the login).
 */
export function sessionEndsAt(session: Session, settings: Settings): number {
  return Math.min(
    Date.parse(session.expiresAt),
    Date.parse(session.createdAt) + settings.webTokenExpiresInDays * DAY,
  );
}

/** Whether the session's times end it at `nowMs`: its lifetime is over, or it was idle too long. */
export function sessionLapse(session: Session, settings: Settings, nowMs: number): SessionEnd | null {
  if (nowMs >= sessionEndsAt(session, settings)) return { why: 'its lifetime is over', final: true };
  if (nowMs - Date.parse(session.lastSeenAt) > settings.sessionTimeoutMinutes * MINUTE) {
    return { why: 'idle for too long', final: true };
  }
  return null;
}

/** A session as its token would be judged at a moment: alive (with its user and end), or ended and why. */
export type SessionStanding = { alive: true; user: User; endsAt: number } | ({ alive: false } & SessionEnd);

/**
 * The session as its token would be judged at `nowMs`: ended by its times (above), by its user (gone or
 * disabled), or by a password change made after it was last confirmed; alive otherwise.
 */
export function sessionStanding(
  session: Session,
  user: User | null | undefined,
  settings: Settings,
  nowMs: number,
): SessionStanding {
  const lapse = sessionLapse(session, settings, nowMs);
  if (lapse) return { alive: false, ...lapse };
  if (user?.status !== 'ACTIVE') return { alive: false, why: 'the user is disabled', final: false };
  if (user.sessionsValidFrom && (session.validFrom ?? session.createdAt) < user.sessionsValidFrom) {
    return { alive: false, why: 'the password was changed', final: false };
  }
  return { alive: true, user, endsAt: sessionEndsAt(session, settings) };
}
