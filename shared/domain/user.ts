/** Users, their sessions, and the principal shape of spec §2.6: what is stored, and what is shown. */
import * as z from 'zod/mini';
import { listPageOf } from './list-element.ts';
import { ROLES, type Role } from './permissions.ts';
import { named, nullableString, timestampSchema } from './schema-parts.ts';

export const USER_STATUSES = ['ACTIVE', 'DISABLED'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];
export const roleSchema = z.enum(ROLES);

/** Spec §2.6 principal: the public fields of a user. */
export const principalSchema = z.strictObject({
  principalId: z.string(),
  username: z.string(),
  name: z.string(),
  firstName: nullableString,
  middleName: nullableString,
  lastName: nullableString,
  phone: nullableString,
  email: nullableString,
});
export type Principal = z.output<typeof principalSchema>;

/** A user as stored. */
export const userSchema = z.object({
  ...principalSchema.shape,
  /** PHC-style scrypt string; never leaves the data layer in a response. */
  passwordHash: z.string(),
  systemAdmin: z.boolean(),
  status: z.enum(USER_STATUSES),
  createdAt: z.string(),
  /** Roles granted to this user, by the nodeId of the environment or folder they were granted on. */
  grants: z._default(z.record(z.string(), roleSchema), {}),
  /** Sessions valid before this instant have ended (set when the password changes). */
  sessionsValidFrom: z.optional(z.string()),
});
export type User = z.output<typeof userSchema>;

/** A server-side session, as stored. */
export const sessionSchema = z.object({
  sessionId: z.string(),
  principalId: z.string(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  /** Absolute end of the session (WEBTOKEN_EXPIRES_IN after login). */
  expiresAt: z.string(),
  userAgent: nullableString,
  sourceIp: nullableString,
  /** When the session was last (re)confirmed: its creation, or the password change made in it. */
  validFrom: z.optional(z.string()),
});
export type Session = z.output<typeof sessionSchema>;

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

/** A user as a caller, to ask what they may do (not a session: nothing is read or written). */
export const callerOf = (user: User): Caller => ({
  principal: toPrincipal(user),
  sessionId: '',
  systemAdmin: user.systemAdmin,
  grants: user.grants ?? {},
});

/** A user as administrators see it: the principal, roles and status; never the password hash. */
export const userViewSchema = named(
  z.extend(principalSchema, {
    roles: z.array(z.string()),
    grants: z.array(z.strictObject({ nodeId: z.string(), role: roleSchema })),
    status: z.enum(USER_STATUSES),
    createdAt: timestampSchema,
  }),
  'User',
);
export type UserView = z.output<typeof userViewSchema>;
export const usersPageSchema = named(listPageOf(userViewSchema), 'UsersPage');

export function toUserView(user: User): UserView {
  return {
    ...toPrincipal(user),
    roles: user.systemAdmin ? ['SYSTEM_ADMINISTRATOR'] : [],
    grants: Object.entries(user.grants).map(([nodeId, role]) => ({ nodeId, role })),
    status: user.status,
    createdAt: user.createdAt,
  };
}

/** A session in the administrators' list. */
export const sessionViewSchema = z.strictObject({
  sessionId: z.string(),
  user: z.nullable(principalSchema),
  createdAt: timestampSchema,
  lastSeenAt: timestampSchema,
  expiresAt: timestampSchema,
  userAgent: nullableString,
  sourceIp: nullableString,
});
export type SessionView = z.output<typeof sessionViewSchema>;
export const sessionsPageSchema = named(listPageOf(sessionViewSchema), 'SessionsPage');

/** A role granted on a node, as stored under the node and answered. */
export const grantSchema = named(
  z.strictObject({
    nodeId: z.string(),
    principalId: z.string(),
    role: roleSchema,
    grantedBy: z.string(),
    grantedAt: timestampSchema,
  }),
  'Grant',
);
export type GrantRecord = z.output<typeof grantSchema>;
export const grantsPageSchema = named(listPageOf(grantSchema), 'GrantsPage');
