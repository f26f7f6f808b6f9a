/**
 * Every kind of item of the single table, described once: what it holds, its keys and index keys. Which
 * key serves which query is in table-schema.ts; repositories read and write items through these.
 */
import * as z from 'zod/mini';
import { storedActionSchema } from '#shared/domain/action.ts';
import { type Node, nodeSchema } from '#shared/domain/node.ts';
import { kindOf } from '#shared/domain/node-types.ts';
import { edgeSchema } from '#shared/domain/process-diagram.ts';
import { settingsStoredSchema } from '#shared/domain/settings.ts';
import { uploadKeyOf, uploadSchema } from '#shared/domain/uploads/upload.ts';
import { grantSchema, sessionSchema, userSchema } from '#shared/domain/user.ts';
import { deliverySchema, webhookSchema } from '#shared/domain/webhooks.ts';
import { defineEntity } from './entity.ts';
import {
  actionKey,
  bootstrapKey,
  childLinkKey,
  deliveryKey,
  diagramBatchKey,
  edgeKey,
  grantKey,
  idempotencyKey,
  loginFailuresKey,
  type NodeCopy,
  nodeKey,
  nodeVersionKey,
  sessionKey,
  sessionsIndexKeys,
  settingsKey,
  trashEntryKey,
  trashedChildKey,
  uploadItemKey,
  userActionsIndexKeys,
  userKey,
  usernameKey,
  userSessionsIndexKeys,
  usersIndexKeys,
  webhookKey,
} from './keys.ts';
import { listAttributesOf } from './list-indexes.ts';
import { TABLE_SCHEMA } from './table-schema.ts';

/**
 * A node's working copy (DRAFT) or published copy. Its kind's fields are attributes of the item beside
 * the common ones. Only a live working copy carries the list attributes, so a deleted node leaves every list.
 */
export const nodes = defineEntity({
  name: 'Node',
  schema: nodeSchema,
  keys: (node: Node, copy: NodeCopy = 'DRAFT') => ({
    ...nodeKey(node.nodeId, copy),
    ...(copy === 'DRAFT' && !node.deleted ? listAttributesOf(node) : {}),
  }),
  store: ({ fields, ...node }) => ({ ...node, ...fields }),
  load: (item) => ({ ...item, fields: kindOf(String(item.nodeType)).read(item) }),
});

/** A version of a node as it was written (its version history); never in a list index. */
export const nodeVersions = defineEntity({
  name: 'NodeVersion',
  schema: nodeSchema,
  keys: (node: Node) => nodeVersionKey(node.nodeId, node.nodeVersionId),
  store: ({ fields, ...node }) => ({ ...node, ...fields }),
  load: (item) => ({ ...item, fields: kindOf(String(item.nodeType)).read(item) }),
});

/**
 * A parent's record of one live child (in the parent's partition, so it can be read consistently); a child
 * written by a batch carries its batchId, like the child itself.
 */
export const childLinks = defineEntity({
  name: 'ChildLink',
  schema: z.object({ childId: z.string(), nodeType: z.string(), batchId: z.optional(z.string()) }),
  keys: (link, parentId: string) => childLinkKey(parentId, link.childId),
});

/** An edge of a process's diagram; one written by a batch carries its batchId. */
export const edges = defineEntity({
  name: 'Edge',
  schema: z.object({
    ...edgeSchema.shape,
    bpmnElementId: z._default(z.nullable(z.string()), null),
    batchId: z.optional(z.string()),
  }),
  keys: (edge, processId: string) => edgeKey(processId, edge.edgeId),
});

/**
 * A batch of writes to a process that takes more than one transaction: its nodes and edges are written
 * first, invisible (they carry its batchId), and become visible together when it commits.
 */
export const diagramBatches = defineEntity({
  name: 'DiagramBatch',
  schema: z.object({
    batchId: z.string(),
    state: z.enum(['open', 'committed', 'abandoned']),
    startedAt: z.string(),
  }),
  keys: (batch, processId: string) => diagramBatchKey(processId, batch.batchId),
});
export type DiagramBatch = ReturnType<typeof diagramBatches.fromItem>;

/** A user's upload: its chunks' receipt, then its assembled file, then the document holding it. */
export const uploads = defineEntity({
  name: 'Upload',
  // expiresAtEpoch is the table's TTL attribute (table-schema.ts).
  schema: uploadSchema,
  keys: (upload, principalId: string) => uploadItemKey(principalId, uploadKeyOf(upload.identifier)),
  // DynamoDB refuses an empty set: an upload with no chunk yet has no `chunks` attribute.
  store: ({ chunks, ...upload }) => (chunks.size > 0 ? { ...upload, chunks } : upload),
});

/** A deleted subtree in the trash: its root as it was, who deleted it and when (expires: see trash-service). */
export const trashEntries = defineEntity({
  name: 'TrashEntry',
  // expiresAtEpoch is the table's TTL attribute (table-schema.ts).
  schema: z.object({
    nodeId: z.string(),
    nodeType: z.string(),
    name: z.string(),
    parentId: z.nullable(z.string()),
    environmentId: z.string(),
    ancestorIds: z.array(z.string()),
    deletedAt: z.string(),
    deletedByName: z.nullable(z.string()),
    nodes: z.number(),
    expiresAtEpoch: z.number(),
  }),
  keys: (entry) => trashEntryKey(entry.deletedAt, entry.nodeId),
});
export type TrashEntry = ReturnType<typeof trashEntries.fromItem>;

/** A child deleted with a subtree (trashedChildKey). */
export const trashedChildren = defineEntity({
  name: 'TrashedChild',
  schema: z.object({ childId: z.string(), nodeType: z.string() }),
  keys: (link, parentId: string, rootId: string) => trashedChildKey(parentId, rootId, link.childId),
});

export const users = defineEntity({
  name: 'User',
  schema: userSchema,
  keys: (user) => ({ ...userKey(user.principalId), ...usersIndexKeys(user.username) }),
});

/** Keeps usernames unique (case-insensitively) and finds a user by theirs. */
export const usernames = defineEntity({
  name: 'Username',
  schema: z.object({ principalId: z.string() }),
  keys: (_entry, username: string) => usernameKey(username),
});

/** A role granted on a node, kept under the node so its grants can be listed. */
export const grants = defineEntity({
  name: 'Grant',
  schema: z.object(grantSchema.shape),
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

export const settings = defineEntity({
  name: 'Settings',
  schema: settingsStoredSchema,
  keys: () => settingsKey(),
});

/** Marks that the first administrator and the Default environment were created. */
export const installation = defineEntity({
  name: 'Installation',
  schema: z.object({
    adminPrincipalId: z.string(),
    defaultEnvironmentId: z.string(),
    bootstrappedAt: z.string(),
  }),
  keys: () => bootstrapKey(),
});

export const actions = defineEntity({
  name: 'Action',
  schema: storedActionSchema,
  keys: (action) => ({
    ...actionKey(action.actionId),
    ...userActionsIndexKeys(action.user.principalId, action.dueDate, action.actionId),
  }),
});

/**
 * A request sent with an Idempotency-Key: written in the same transaction as the writes that complete the
 * request (so they happen once), then given the answer to replay; DynamoDB removes it after 24 hours.
 */
export const idempotentRequests = defineEntity({
  name: 'IdempotentRequest',
  schema: z.object({
    fingerprint: z.string(),
    committedAt: z.string(),
    expiresAtEpoch: z.number(),
    answer: z.optional(
      z.object({ statusCode: z.number(), headers: z.record(z.string(), z.string()), body: z.string() }),
    ),
  }),
  keys: (_request, principalId: string, key: string) => idempotencyKey(principalId, key),
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

/** A webhook endpoint (all of them in one partition: see keys.ts). */
export const webhooks = defineEntity({
  name: 'Webhook',
  schema: webhookSchema,
  keys: (webhook) => webhookKey(webhook.webhookId),
});

/**
 * One change for one webhook, with its attempts; expires with the feed's changes. `claimedUntil` marks an
 * attempt in progress (a repeated queue message finds it taken).
 */
export const deliveries = defineEntity({
  name: 'WebhookDelivery',
  // expiresAtEpoch is the table's TTL attribute (table-schema.ts).
  schema: z.object({
    ...deliverySchema.shape,
    expiresAtEpoch: z.number(),
    claimedUntil: z._default(z.number(), 0),
  }),
  keys: (delivery) => deliveryKey(delivery.webhookId, delivery.deliveryId),
});
export type StoredDelivery = ReturnType<typeof deliveries.fromItem>;
