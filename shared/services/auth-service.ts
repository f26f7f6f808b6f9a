/** Login: checks the password under the login throttle, opens a session and issues its token. */
import { issueAccessToken } from '#shared/auth/access-token-issuer.ts';
import { decoyHash, verifyPassword } from '#shared/auth/passwords.ts';
import { clearFailures, type ThrottleSubject } from '#shared/data/login-failures-repository.ts';
import { createSession } from '#shared/data/session-repository.ts';
import { findUserByUsername } from '#shared/data/user-repository.ts';
import { UnauthenticatedError } from '#shared/domain/errors.ts';
import { newId } from '#shared/domain/node.ts';
import { DAY } from '#shared/domain/session-life.ts';
import type { Session } from '#shared/domain/user.ts';
import { countFailedCheck, refuseWhileThrottled } from './login-throttle-checks.ts';
import { currentSettings } from './settings-service.ts';

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
  await refuseWhileThrottled(subjects, nowSeconds);
  const user = await findUserByUsername(username);
  // An unknown user costs a full hash too, so response time does not tell which usernames exist.
  const passwordMatches = await verifyPassword(password, user?.passwordHash ?? (await decoyHash()));
  if (!user || !passwordMatches || user.status !== 'ACTIVE') {
    await countFailedCheck(subjects, nowSeconds);
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
