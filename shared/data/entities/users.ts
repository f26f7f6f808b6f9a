/**
 * Users as stored: their accounts, usernames, grants, sessions and failed logins.
 * How items of the single table are described: ../entity.ts; which key serves which query: ../table-schema.ts.
 */
import * as z from 'zod/mini';
import {
  grantSchema,
  type Principal,
  principalSchema,
  sessionSchema,
  userSchema,
} from '#shared/domain/user.ts';
import { defineEntity } from '../entity.ts';
import {
  grantKey,
  loginFailuresKey,
  sessionKey,
  sessionsIndexKeys,
  userKey,
  usernameKey,
  userSessionsIndexKeys,
  usersIndexKeys,
} from '../keys.ts';
import { TABLE_SCHEMA } from '../table-schema.ts';

export const users = defineEntity({
  name: 'User',
  schema: userSchema,
  keys: (user) => ({ ...userKey(user.principalId), ...usersIndexKeys(user.username) }),
});

/** A user's item as answers naming them read it: their principal only (a projection), never the hash or grants. */
const principalOnlySchema = z.object(principalSchema.shape);
export const principals = {
  attributes: (): readonly string[] => Object.keys(principalSchema.shape),
  fromItem: (item: Record<string, unknown>): Principal => principalOnlySchema.parse(item),
};

/** Keeps usernames unique (case-insensitively) and finds a user by theirs. */
export const usernames = defineEntity({
  name: 'Username',
  schema: z.object({ principalId: z.string() }),
  keys: (_entry, username: string) => usernameKey(username),
});

/**
 * A role granted on a node, kept under the node so its grants can be listed. It also keeps where the node is (its type and ancestors), so the change feed can
 * place the grant's removal when a purge has taken the node away.
 */
export const grants = defineEntity({
  name: 'Grant',
  schema: z.object({
    ...grantSchema.shape,
    nodeType: z.optional(z.string()),
    nodeAncestorIds: z.optional(z.array(z.string())),
  }),
  keys: (grant) => grantKey(grant.nodeId, grant.principalId),
});

export const sessions = defineEntity({
  name: 'Session',
  schema: sessionSchema,
  keys: (session) => ({
    ...sessionKey(session.sessionId),
    ...userSessionsIndexKeys(session.principalId, session.createdAt),
    ...sessionsIndexKeys(session.createdAt, session.sessionId),
    // DynamoDB removes it when its lifetime is over (late: reads check expiresAt themselves).
    [TABLE_SCHEMA.ttlAttribute]: Math.ceil(Date.parse(session.expiresAt) / 1000),
  }),
});

/** Who a count of failed logins is about: a username, or a source address. */
export type ThrottleSubject = { kind: 'user'; username: string } | { kind: 'source'; address: string };

/** Failed logins of one subject in its current window; DynamoDB removes it when the window ends. */
export const loginFailures = defineEntity({
  name: 'LoginFailures',
  // expiresAtEpoch is the table's TTL attribute (table-schema.ts).
  schema: z.object({ count: z.number(), expiresAtEpoch: z.number() }),
  keys: (_window, subject: ThrottleSubject) => loginFailuresKey(subject),
});
