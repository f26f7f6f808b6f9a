/** Users, their sessions, and the principal shape of spec §2.6. */
import type { Role } from './permissions.ts';

export type UserStatus = 'ACTIVE' | 'DISABLED';

export interface User {
  principalId: string;
  username: string;
  name: string;
  firstName: string | null;
  middleName: string | null;
  lastName: string | null;
  phone: string | null;
  email: string | null;
  /** PHC-style scrypt string; never leaves the data layer in a response. */
  passwordHash: string;
  systemAdmin: boolean;
  status: UserStatus;
  createdAt: string;
  /** Roles granted to this user, by the nodeId of the environment or folder they were granted on. */
  grants: Record<string, Role>;
  /** Sessions valid before this instant have ended (set when the password changes). */
  sessionsValidFrom?: string;
}

export interface Session {
  sessionId: string;
  principalId: string;
  createdAt: string;
  lastSeenAt: string;
  /** Absolute end of the session (WEBTOKEN_EXPIRES_IN after login). */
  expiresAt: string;
  userAgent: string | null;
  sourceIp: string | null;
  /** When the session was last (re)confirmed: its creation, or the password change made in it. */
  validFrom?: string;
}

/** Spec §2.6 principal: the public fields of a user. */
export type Principal = Pick<
  User,
  'principalId' | 'username' | 'name' | 'firstName' | 'middleName' | 'lastName' | 'phone' | 'email'
>;

/** Who is calling: the user behind a verified token and a live session. */
export interface Caller {
  principal: Principal;
  sessionId: string;
  systemAdmin: boolean;
  grants: Record<string, Role>;
}

export function toPrincipal(user: User): Principal {
  return {
    principalId: user.principalId,
    username: user.username,
    name: user.name,
    firstName: user.firstName,
    middleName: user.middleName,
    lastName: user.lastName,
    phone: user.phone,
    email: user.email,
  };
}
