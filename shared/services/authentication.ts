/**
 * Per-request authentication against the server-side session, and logout. Every authenticated
 * function loads this; it verifies tokens and never signs them (login is auth-service.ts).
 */
import { requireLifetimeWithin, verifyAccessToken } from '#shared/auth/access-tokens.ts';
import {
  forgetSession,
  recallSession,
  rememberSession,
  sessionTouched,
} from '#shared/auth/session-checks.ts';
import { config } from '#shared/config/index.ts';
import { deleteSession, findSessionWithUser, touchSession } from '#shared/data/session-repository.ts';
import { UnauthenticatedError } from '#shared/domain/errors.ts';
import { DAY, MINUTE, sessionStanding } from '#shared/domain/session-life.ts';
import { SETTINGS_LIMITS } from '#shared/domain/settings.ts';
import { type Caller, toPrincipal } from '#shared/domain/user.ts';
import { currentSettings } from './settings-service.ts';

/**
 * lastSeenAt is written at most once a minute (a quarter of the idle timeout if that is shorter), so a
 * busy session costs one small write a minute rather than one per call.
 */
const touchIntervalMs = (timeoutMinutes: number) => Math.min(MINUTE, (timeoutMinutes * MINUTE) / 4);

/** Who a verified token names, before its session is known to be alive. */
export interface VerifiedPrincipal {
  principalId: string;
}

const sessionEnded = (why: string) =>
  new UnauthenticatedError('SESSION_ENDED', `The session has ended (${why}); log in again`);

/**
 * The caller behind a token, if its session is alive (domain/session-life.ts): not ended, not idle too
 * long, user active, no password change since.
 * `whenVerified` runs once the token is known to be ours and in its lifetime, before the session is read:
 * reads that need at most the token's principal may start then, beside it (nothing is answered before
 * this ends, and a session found ended still fails the request).
 */
export async function authenticate(
  token: string,
  now = new Date(),
  whenVerified?: (verified: VerifiedPrincipal) => void,
): Promise<Caller> {
  const subject = await verifyAccessToken(token, now);
  const settings = await currentSettings(now.getTime());
  // A lifetime no setting grants is refused; one an earlier, longer setting granted is not (its session is
  // bounded by the setting in force, from its login, below).
  requireLifetimeWithin(subject, (SETTINGS_LIMITS.WEBTOKEN_EXPIRES_IN.max * DAY) / 1000);
  whenVerified?.({ principalId: subject.principalId });
  const recheckMs = config().sessionRecheckSeconds * 1000;
  const recalled =
    recheckMs > 0
      ? recallSession(subject.sessionId, subject.principalId, now.getTime(), recheckMs)
      : undefined;
  const { session, user } = recalled ?? (await findSessionWithUser(subject.sessionId, subject.principalId));
  if (!session || session.principalId !== subject.principalId) throw sessionEnded('logged out or revoked');
  const standing = sessionStanding(session, user, settings, now.getTime());
  if (!standing.alive) {
    if (standing.final) await deleteSession(session.sessionId);
    throw sessionEnded(standing.why);
  }
  const idleMs = now.getTime() - Date.parse(session.lastSeenAt);
  if (idleMs > touchIntervalMs(settings.sessionTimeoutMinutes)) {
    const at = now.toISOString();
    if (!(await touchSession(session.sessionId, at))) {
      forgetSession(session.sessionId);
      throw sessionEnded('logged out or revoked');
    }
    sessionTouched(session.sessionId, at);
  }
  if (!recalled && recheckMs > 0) rememberSession(session, standing.user, now.getTime());
  return {
    principal: toPrincipal(standing.user),
    sessionId: session.sessionId,
    systemAdmin: standing.user.systemAdmin,
    grants: standing.user.grants ?? {},
  };
}

export async function logout(caller: Caller): Promise<void> {
  await deleteSession(caller.sessionId);
}
