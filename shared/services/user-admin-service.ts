/** User administration (system administrators), and a user's own record and password. */
import { hashPassword, verifyPassword } from '#shared/auth/passwords.ts';
import { confirmSession, deleteSessionsOf } from '#shared/data/session-repository.ts';
import { createUser, findUser, listUsersPage, updateUser } from '#shared/data/user-repository.ts';
import { ConflictError, NotFoundError, UnauthenticatedError } from '#shared/domain/errors.ts';
import type { ListPage } from '#shared/domain/list-element.ts';
import { newId, timestamp } from '#shared/domain/node.ts';
import { type Caller, toUserView, type User, type UserView } from '#shared/domain/user.ts';
import type { CreateUserPayload, UpdateUserPayload } from '#shared/domain/user-payloads.ts';
import { countFailedCheck, refuseWhileThrottled } from './login-throttle-checks.ts';
import { type CursorRequest, cursorPage } from './paging.ts';
import { requireSystemAdmin } from './require-system-admin.ts';

/** Users by username, a page at a time: a page reads at most pageSize users. */
export async function usersPage(caller: Caller, query: CursorRequest): Promise<ListPage<UserView>> {
  requireSystemAdmin(caller);
  return cursorPage('users', 'username', query, async (limit, after) => {
    const { users, next } = await listUsersPage(limit, after);
    return { results: users.map(toUserView), ...(next ? { next } : {}) };
  });
}

export async function addUser(caller: Caller, payload: CreateUserPayload): Promise<UserView> {
  requireSystemAdmin(caller);
  const user: User = {
    principalId: newId(),
    username: payload.username,
    name: payload.name ?? payload.username,
    firstName: payload.firstName ?? null,
    middleName: payload.middleName ?? null,
    lastName: payload.lastName ?? null,
    phone: payload.phone ?? null,
    email: payload.email ?? null,
    passwordHash: await hashPassword(payload.password),
    systemAdmin: payload.systemAdmin ?? false,
    status: 'ACTIVE',
    createdAt: timestamp(),
    grants: {},
  };
  await createUser(user);
  return toUserView(user);
}

export async function changeUser(
  caller: Caller,
  principalId: string,
  payload: UpdateUserPayload,
): Promise<UserView> {
  requireSystemAdmin(caller);
  const user = await findUser(principalId);
  if (!user) throw new NotFoundError('USER_NOT_FOUND', `No user ${principalId}`);
  // An administrator cannot lock themselves out (and so cannot remove the last administrator).
  if (
    principalId === caller.principal.principalId &&
    (payload.systemAdmin === false || payload.status === 'DISABLED')
  ) {
    throw new ConflictError(
      'CANNOT_LOCK_OUT_SELF',
      'You cannot remove your own administrator role or disable yourself',
    );
  }
  const { password, ...fields } = payload;
  const changes = {
    ...Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)),
    ...(password ? { passwordHash: await hashPassword(password), sessionsValidFrom: timestamp() } : {}),
  };
  // Only the fields named change: a grant or the user's own password change meanwhile stays.
  await updateUser(principalId, changes);
  const updated: User = { ...user, ...changes };
  // A disabled user, or one whose password an administrator reset, is logged out everywhere at once.
  if (updated.status === 'DISABLED' || password) await deleteSessionsOf(principalId);
  return toUserView(updated);
}

/**
 * The caller's own user record, read strongly consistent (not the session check's copy, which a warm
 * instance may remember for SESSION_RECHECK_SECONDS): the first read of GET /users/me, which its handler
 * starts beside the session check (handle's `prefetch`) and passes on as `stored`.
 */
export function readOwnUser(principalId: string): Promise<User | null> {
  return findUser(principalId);
}

/** The caller as administrators see users: principal, roles, grants and status. */
export async function ownUser(stored: Promise<User | null>): Promise<UserView> {
  const user = await stored;
  // The session check has just found this user; one gone since has no session left to ask with.
  if (!user) {
    throw new UnauthenticatedError('SESSION_ENDED', 'The session has ended (user removed); log in again');
  }
  return toUserView(user);
}

/** The caller's own password: the old one is required; every other session of theirs ends. */
export async function changeOwnPassword(
  caller: Caller,
  oldPassword: string,
  newPassword: string,
): Promise<void> {
  const user = await findUser(caller.principal.principalId);
  if (!user) throw new UnauthenticatedError('INVALID_CREDENTIALS', 'The old password is wrong');
  // Under the login throttle, counted against the username as a failed login is.
  const subjects = [{ kind: 'user' as const, username: user.username }];
  const nowSeconds = Math.floor(Date.now() / 1000);
  await refuseWhileThrottled(subjects, nowSeconds);
  if (!(await verifyPassword(oldPassword, user.passwordHash))) {
    await countFailedCheck(subjects, nowSeconds);
    throw new UnauthenticatedError('INVALID_CREDENTIALS', 'The old password is wrong');
  }
  // Sessions from before the change end on their next request (checked against the user item), even
  // one the session index has not caught up with; this session is re-confirmed first, so it stays.
  const now = timestamp();
  await confirmSession(caller.sessionId, now);
  await updateUser(user.principalId, {
    passwordHash: await hashPassword(newPassword),
    sessionsValidFrom: now,
  });
  await deleteSessionsOf(user.principalId, caller.sessionId);
}
