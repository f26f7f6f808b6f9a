/** Key builders: small pure functions, the only place key strings are spelled. */

export type NodeCopy = 'DRAFT' | 'PUBLISHED';

/** Environments hang under the library itself. */
export const LIBRARY_PARENT = 'LIBRARY';

export const nodeKey = (nodeId: string, copy: NodeCopy = 'DRAFT') => ({ PK: `NODE#${nodeId}`, SK: copy });
/** The attribute of a published process's copy that holds its edges as they were published. */
export const PUBLISHED_EDGES = 'publishedEdges';
/** The attribute of a published process's copy that lists the tasks it was published with (their ids). */
export const PUBLISHED_TASK_IDS = 'publishedTaskIds';

/**
 * A version of a node as it was written, in the node's partition. Version ids are time-ordered (UUIDv7),
 * so the versions read newest first in key order.
 */
export const nodeVersionKey = (nodeId: string, nodeVersionId: string) => ({
  PK: `NODE#${nodeId}`,
  SK: `${VERSION_PREFIX}${nodeVersionId}`,
});
export const VERSION_PREFIX = 'VERSION#';

/**
 * A parent's record of one live child, in the parent's own partition: unlike the children index, it
 * can be read strongly consistent, so a subtree delete cannot miss a child created just before it.
 */
export const childLinkKey = (parentId: string, childId: string) => ({
  PK: `NODE#${parentId}`,
  SK: `CHILD#${childId}`,
});
export const CHILD_LINK_PREFIX = 'CHILD#';

/**
 * A child deleted with the subtree of `rootId`, recorded in its parent's partition where its live link
 * was, so the subtree can be found again to restore or purge it.
 */
export const trashedChildKey = (parentId: string, rootId: string, childId: string) => ({
  PK: `NODE#${parentId}`,
  SK: `${trashedChildPrefix(rootId)}${childId}`,
});
/** Every trashed-child link of a partition, whichever delete made it. */
export const TRASHED_CHILDREN_PREFIX = 'TRASHED#';
export const trashedChildPrefix = (rootId: string) => `${TRASHED_CHILDREN_PREFIX}${rootId}#`;
/** An edge removed with the subtree of `rootId`, kept in its process's partition until restore or purge. */
export const trashedEdgeKey = (processId: string, rootId: string, edgeId: string) => ({
  PK: `NODE#${processId}`,
  SK: `${trashedEdgePrefix(rootId)}${edgeId}`,
});
export const trashedEdgePrefix = (rootId: string) => `TRASHEDEDGE#${rootId}#`;
/** The trash: one entry per deleted subtree, newest first by deletion time. */
export const TRASH_PARTITION = 'TRASH';
/** Where a deleted root's trash entry is, in the root's own partition (deletedAt names the entry). */
export const trashPointerKey = (rootId: string) => ({ PK: `NODE#${rootId}`, SK: 'TRASH' });
/** Attribute of a trash pointer whose subtree's purge has begun: from then on it cannot be restored. */
export const PURGE_STARTED_ATTRIBUTE = 'purgeStartedAt';
export const trashEntryKey = (deletedAt: string, rootId: string) => ({
  PK: TRASH_PARTITION,
  SK: `${deletedAt}#${rootId}`,
});

/** An edge of a process's diagram, in the process's partition (read with its tasks' links). */
export const edgeKey = (processId: string, edgeId: string) => ({
  PK: `NODE#${processId}`,
  SK: `${EDGE_PREFIX}${edgeId}`,
});
export const EDGE_PREFIX = 'EDGE#';

/** A batch of writes to a process too large for one transaction (diagram-batches.ts). */
export const diagramBatchKey = (processId: string, batchId: string) => ({
  PK: `NODE#${processId}`,
  SK: `${DIAGRAM_BATCH_PREFIX}${batchId}`,
});
export const DIAGRAM_BATCH_PREFIX = 'BATCH#';

/** Item attribute of a node whose subtree delete is under way: until when creates under it are refused. */
export const DELETE_LEASE_ATTRIBUTE = 'deletingUntil';

/** Live counts of a node's children and descendants, by nodeType and status (list totals). */
export const countsKey = (nodeId: string, shard: number) => ({
  PK: `NODE#${nodeId}`,
  SK: `${COUNTS_PREFIX}#${shard}`,
});
/** Every shard of a node's counts (and the one COUNTS item of a data folder from before shards) begins so. */
export const COUNTS_PREFIX = 'COUNTS';

export const userKey = (principalId: string) => ({ PK: `USER#${principalId}`, SK: 'PROFILE' });

/** A user's upload, in the user's partition (so a user's open uploads are one query). */
export const uploadItemKey = (principalId: string, uploadKey: string) => ({
  PK: `USER#${principalId}`,
  SK: `${UPLOAD_PREFIX}${uploadKey}`,
});
export const UPLOAD_PREFIX = 'UPLOAD#';
export const usernameKey = (username: string) => ({
  PK: `USERNAME#${username.toLowerCase()}`,
  SK: 'USERNAME',
});

/** Every user, for the administrators' user list (GSI2, sorted by lower-case username). */
export const usersIndexKeys = (username: string) => ({
  GSI2PK: 'USERS',
  GSI2SK: `USER#${username.toLowerCase()}`,
});
export const USERS_PARTITION = 'USERS';

/** A role granted on a node, kept under the node so its grants can be listed. */
export const grantKey = (nodeId: string, principalId: string) => ({
  PK: `NODE#${nodeId}`,
  SK: `GRANT#${principalId}`,
});
export const GRANT_PREFIX = 'GRANT#';

export const sessionKey = (sessionId: string) => ({ PK: `SESSION#${sessionId}`, SK: 'SESSION' });
export const userSessionsIndexKeys = (principalId: string, createdAt: string) => ({
  GSI1PK: `USER_SESSIONS#${principalId}`,
  GSI1SK: `SESSION#${createdAt}`,
});
export const userSessionsPartition = (principalId: string) => `USER_SESSIONS#${principalId}`;

/** Every session, for the administrators' session list (GSI2, newest last). */
export const sessionsIndexKeys = (createdAt: string, sessionId: string) => ({
  GSI2PK: 'SESSIONS',
  GSI2SK: `SESSION#${createdAt}#${sessionId}`,
});
export const SESSIONS_PARTITION = 'SESSIONS';

/** Marks that the first administrator and the Default environment were created. */
export const bootstrapKey = () => ({ PK: 'INSTALLATION', SK: 'BOOTSTRAP' });

/** SESSION_TIMEOUT and WEBTOKEN_EXPIRES_IN as system administrators set them. */
export const settingsKey = () => ({ PK: 'INSTALLATION', SK: 'SETTINGS' });

export const actionKey = (actionId: string) => ({ PK: `ACTION#${actionId}`, SK: 'ACTION' });
/** A user's actions (GSI1), by due date. */
export const userActionsIndexKeys = (principalId: string, dueDate: string, actionId: string) => ({
  GSI1PK: `USER_ACTIONS#${principalId}`,
  GSI1SK: `DUE#${dueDate}#${actionId}`,
});
export const userActionsPartition = (principalId: string) => `USER_ACTIONS#${principalId}`;

/** The change feed's partitions: `CHANGES#<shard>` (change-repository.ts). */
export const CHANGES_PREFIX = 'CHANGES#';

/** Every webhook endpoint, in one partition: deliveries read them all at once, and few are kept. */
export const WEBHOOKS_PARTITION = 'WEBHOOKS';
export const webhookKey = (webhookId: string) => ({ PK: WEBHOOKS_PARTITION, SK: `WEBHOOK#${webhookId}` });
/** A webhook's deliveries, in its own partition, in the order of the changes they carry. */
export const deliveryKey = (webhookId: string, deliveryId: string) => ({
  PK: `WEBHOOK#${webhookId}`,
  SK: `${DELIVERY_PREFIX}${deliveryId}`,
});
export const DELIVERY_PREFIX = 'DELIVERY#';

/** The record of a request sent with an Idempotency-Key, by the caller and (a hash of) their key. */
export const idempotencyKey = (principalId: string, key: string) => ({
  PK: `IDEMPOTENCY#${principalId}#${key}`,
  SK: 'REQUEST',
});

/** Failed logins of a username (lower case) or of a source address, in their current window. */
export const loginFailuresKey = (
  subject: { kind: 'user'; username: string } | { kind: 'source'; address: string },
) => ({
  PK:
    subject.kind === 'user'
      ? `LOGIN_FAILURES#USER#${subject.username.toLowerCase()}`
      : `LOGIN_FAILURES#SOURCE#${subject.address}`,
  SK: 'WINDOW',
});
