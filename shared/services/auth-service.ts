/** Login, per-request authentication against the server-side session, and logout. */
import { issueAccessToken, requireLifetimeWithin, verifyAccessToken } from '#shared/auth/access-tokens.ts';
import { decoyHash, verifyPassword } from '#shared/auth/passwords.ts';
import {
  forgetSession,
  recallSession,
  rememberSession,
  sessionTouched,
} from '#shared/auth/session-checks.ts';
import { config } from '#shared/config/index.ts';
import {
  clearFailures,
  countFailure,
  findFailureWindows,
  type ThrottleSubject,
} from '#shared/data/login-failures-repository.ts';
import {
  createSession,
  deleteSession,
  findSessionWithUser,
  touchSession,
} from '#shared/data/session-repository.ts';
import { findUserByUsername } from '#shared/data/user-repository.ts';
import { TooManyRequestsError, UnauthenticatedError } from '#shared/domain/errors.ts';
import { LOGIN_THROTTLE, waitSeconds } from '#shared/domain/login-throttle.ts';
import { newId } from '#shared/domain/node.ts';
import { type Caller, type Session, toPrincipal } from '#shared/domain/user.ts';
import { currentSettings } from './settings-service.ts';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
/**
 * lastSeenAt is written at most once a minute (a quarter of the idle timeout if that is shorter), so a
 * busy session costs one small write a minute rather than one per call.
 */
const touchIntervalMs = (timeoutMinutes: number) => Math.min(MINUTE, (timeoutMinutes * MINUTE) / 4);

export interface LoginResult {
  accessToken: string;
  session: Session;
}

export async function login(
  username: string,
  password: string,
  client: { userAgent: string | null; sourceIp: string | null },
  now = new Date(),
): Promise<LoginResult> {
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const subjects: ThrottleSubject[] = [{ kind: 'user', username }];
  if (client.sourceIp) subjects.push({ kind: 'source', address: client.sourceIp });
  const [userWindow, sourceWindow] = await findFailureWindows(subjects);
  const wait = Math.max(
    waitSeconds(userWindow ?? null, LOGIN_THROTTLE.failuresPerUser, nowSeconds),
    waitSeconds(sourceWindow ?? null, LOGIN_THROTTLE.failuresPerSource, nowSeconds),
  );
  if (wait > 0) {
    throw new TooManyRequestsError(
      'TOO_MANY_LOGIN_ATTEMPTS',
      `Too many failed logins; try again in ${wait} seconds`,
      wait,
    );
  }
  const user = await findUserByUsername(username);
  // An unknown user costs a full hash too, so response time does not tell which usernames exist.
  const passwordMatches = await verifyPassword(password, user?.passwordHash ?? (await decoyHash()));
  if (!user || !passwordMatches || user.status !== 'ACTIVE') {
    await Promise.all(
      subjects.map((subject) => countFailure(subject, nowSeconds, LOGIN_THROTTLE.windowSeconds)),
    );
    throw new UnauthenticatedError('INVALID_CREDENTIALS', 'The username or password is wrong');
  }
  await clearFailures(subjects[0] as ThrottleSubject);
  const settings = await currentSettings(now.getTime());
  const expiresAt = new Date(now.getTime() + settings.webTokenExpiresInDays * DAY);
  const session: Session = {
    sessionId: newId(),
    principalId: user.principalId,
    createdAt: now.toISOString(),
    lastSeenAt: now.toISOString(),
    expiresAt: expiresAt.toISOString(),
    userAgent: client.userAgent?.slice(0, 512) ?? null,
    sourceIp: client.sourceIp,
  };
  await createSession(session);
  const accessToken = await issueAccessToken(
    { principalId: user.principalId, username: user.username, sessionId: session.sessionId },
    now,
    expiresAt,
  );
  return { accessToken, session };
}

const sessionEnded = (why: string) =>
  new UnauthenticatedError('SESSION_ENDED', `The session has ended (${why}); log in again`);

/** The caller behind a token, if its session is alive: not ended, not idle too long, user active. */
export async function authenticate(token: string, now = new Date()): Promise<Caller> {
  const subject = await verifyAccessToken(token, now);
  const settings = await currentSettings(now.getTime());
  requireLifetimeWithin(subject, (settings.webTokenExpiresInDays * DAY) / 1000);
  const recheckMs = config().sessionRecheckSeconds * 1000;
  const recalled =
    recheckMs > 0
      ? recallSession(subject.sessionId, subject.principalId, now.getTime(), recheckMs)
      : undefined;
  const { session, user } = recalled ?? (await findSessionWithUser(subject.sessionId, subject.principalId));
  if (!session || session.principalId !== subject.principalId) throw sessionEnded('logged out or revoked');
  const idleMs = now.getTime() - Date.parse(session.lastSeenAt);
  const endsAt = Math.min(
    Date.parse(session.expiresAt),
    Date.parse(session.createdAt) + settings.webTokenExpiresInDays * DAY,
  );
  if (now.getTime() >= endsAt) {
    await deleteSession(session.sessionId);
    throw sessionEnded('its lifetime is over');
  }
  if (idleMs > settings.sessionTimeoutMinutes * MINUTE) {
    await deleteSession(session.sessionId);
    throw sessionEnded('idle for too long');
  }
  if (user?.status !== 'ACTIVE') throw sessionEnded('the user is disabled');
  if (user.sessionsValidFrom && (session.validFrom ?? session.createdAt) < user.sessionsValidFrom) {
    throw sessionEnded('the password was changed');
  }
  if (idleMs > touchIntervalMs(settings.sessionTimeoutMinutes)) {
    const at = now.toISOString();
    if (!(await touchSession(session.sessionId, at))) {
      forgetSession(session.sessionId);
      throw sessionEnded('logged out or revoked');
    }
    sessionTouched(session.sessionId, at);
  }
  if (!recalled && recheckMs > 0) rememberSession(session, user, now.getTime());
  return {
    principal: toPrincipal(user),
    sessionId: session.sessionId,
    systemAdmin: user.systemAdmin,
    grants: user.grants ?? {},
  };
}

export async function logout(caller: Caller): Promise<void> {
  await deleteSession(caller.sessionId);
}
