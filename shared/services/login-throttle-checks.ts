/**
 * The failed-login throttle (domain/login-throttle.ts) around any check of a password: a login, and a
 * user's own password change, whose old password a stolen session could otherwise guess at will.
 */
import {
  countFailure,
  findFailureWindows,
  type ThrottleSubject,
} from '#shared/data/login-failures-repository.ts';
import { TooManyRequestsError } from '#shared/domain/errors.ts';
import { LOGIN_THROTTLE, waitSeconds } from '#shared/domain/login-throttle.ts';

/** A 429 while any subject (the username, the source address) has failed too often of late. */
export async function refuseWhileThrottled(subjects: ThrottleSubject[], nowSeconds: number): Promise<void> {
  const [userWindow, sourceWindow] = await findFailureWindows(subjects);
  const wait = Math.max(
    waitSeconds(userWindow ?? null, LOGIN_THROTTLE.failuresPerUser, nowSeconds),
    waitSeconds(sourceWindow ?? null, LOGIN_THROTTLE.failuresPerSource, nowSeconds),
  );
  if (wait > 0) {
    throw new TooManyRequestsError(
      'TOO_MANY_LOGIN_ATTEMPTS',
      `Too many failed password checks; try again in ${wait} seconds`,
      wait,
    );
  }
}

/** Counts a failed password check against every subject. */
export async function countFailedCheck(subjects: ThrottleSubject[], nowSeconds: number): Promise<void> {
  await Promise.all(
    subjects.map((subject) => countFailure(subject, nowSeconds, LOGIN_THROTTLE.windowSeconds)),
  );
}
