import { LIST_INDEXES, LIST_PROJECTED_ATTRIBUTES } from './list-indexes.ts';

/**
 * The single table: keys, indexes and TTL attribute. The CDK stack and the embedded stack both build
 * the table from this one description.
 *
 * Access patterns (which key serves which query):
 * | pattern                               | key                                             |
 * |---------------------------------------|-------------------------------------------------|
 * | node by id (working / published copy) | PK=NODE#<id>, SK=DRAFT / PUBLISHED              |
 * | a node's versions, newest first       | PK=NODE#<id>, SK begins_with VERSION# (UUIDv7)  |
 * | live children, strongly consistent    | PK=NODE#<parent>, SK begins_with CHILD#         |
 * | user by id                            | PK=USER#<principalId>, SK=PROFILE               |
 * | user id by username (unique)          | PK=USERNAME#<lower-case username>, SK=USERNAME  |
 * | session by id                         | PK=SESSION#<sessionId>, SK=SESSION              |
 * | sessions of a user                    | GSI1: GSI1PK=USER_SESSIONS#<principalId>        |
 * | all users (admin list)                | GSI2: GSI2PK=USERS, GSI2SK=USER#<username>      |
 * | all sessions (admin list)             | GSI2: GSI2PK=SESSIONS, GSI2SK=SESSION#<created> |
 * | roles granted on a node               | PK=NODE#<id>, SK begins_with GRANT#             |
 * | installation settings                 | PK=INSTALLATION, SK=SETTINGS                    |
 * | action by id                          | PK=ACTION#<id>, SK=ACTION                       |
 * | actions of a user, by due date        | GSI1: GSI1PK=USER_ACTIONS#<principalId>         |
 * | live counts under a node (totals)     | PK=NODE#<id>, SK begins_with COUNTS# (16 shards) |
 * | edges of a process's diagram          | PK=NODE#<process>, SK begins_with EDGE#         |
 * | batches of a process (diagram-batches)| PK=NODE#<process>, SK begins_with BATCH#        |
 * | idempotency key of a request          | PK=IDEMPOTENCY#<principal>#<key hash>           |
 * | a user's upload / their open uploads  | PK=USER#<principalId>, SK (begins_with) UPLOAD# |
 * | the trash, newest first               | PK=TRASH, SK=<deletedAt>#<rootId>               |
 * | every webhook endpoint                | PK=WEBHOOKS, SK=WEBHOOK#<webhookId>              |
 * | a webhook's deliveries, newest first  | PK=WEBHOOK#<id>, SK=DELIVERY#<recordedAt>_<changeId> |
 * | children / edges a delete took        | PK=NODE#<parent>, SK begins_with TRASHED#<root># |
 * | list pages (parent, environment, type | 12 list indexes, see list-indexes.ts            |
 * |   scopes × 4 sort keys)               |                                                 |
 * Deleted nodes lose their list attributes, so lists skip them without filtering.
 */
export interface IndexSchema {
  indexName: string;
  partitionKey: string;
  sortKey: string;
  /** ALL, or the keys plus the named attributes. */
  projection: readonly string[] | 'ALL';
}

const ALL = 'ALL';
const LIST_PROJECTION: readonly string[] = LIST_PROJECTED_ATTRIBUTES;

/** Sessions and actions by user (GSI1); users and sessions for the administrators' lists (GSI2). */
export const GSI1: IndexSchema = {
  indexName: 'GSI1',
  partitionKey: 'GSI1PK',
  sortKey: 'GSI1SK',
  projection: ALL,
};
export const GSI2: IndexSchema = {
  indexName: 'GSI2',
  partitionKey: 'GSI2PK',
  sortKey: 'GSI2SK',
  projection: ALL,
};

export const TABLE_SCHEMA: {
  partitionKey: string;
  sortKey: string;
  ttlAttribute: 'expiresAtEpoch';
  indexes: readonly IndexSchema[];
} = {
  partitionKey: 'PK',
  sortKey: 'SK',
  /** Epoch seconds; DynamoDB TTL removes expired items (late: code checks expiry itself). */
  ttlAttribute: 'expiresAtEpoch',
  indexes: [GSI1, GSI2, ...LIST_INDEXES.map((index) => ({ ...index, projection: LIST_PROJECTION }))],
};
