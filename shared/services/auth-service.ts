/** Login: checks the password under the login throttle, opens a session and issues its token. */
import { issueAccessToken } from '#shared/auth/access-token-issuer.ts';
import { decoyHash, verifyPassword } from '#shared/auth/passwords.ts';
import {
  clearFailures,
  countFailure,
  findFailureWindows,
  type ThrottleSubject,
} from '#shared/data/login-failures-repository.ts';
import { createSession } from '#shared/data/session-repository.ts';
import { findUserByUsername } from '#shared/data/user-repository.ts';
import { TooManyRequestsError, UnauthenticatedError } from '#shared/domain/errors.ts';
import { LOGIN_THROTTLE, waitSeconds } from '#shared/domain/login-throttle.ts';
import { newId } from '#shared/domain/node.ts';
import type { Session } from '#shared/domain/user.ts';
import { currentSettings } from './settings-service.ts';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

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
