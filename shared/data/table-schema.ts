/**
 * The single table: keys, indexes and TTL attribute. The CDK stack and the embedded stack both build
 * the table from this one description.
 *
 * Access patterns (which key serves which query):
 * | pattern                               | key                                             |
 * |---------------------------------------|-------------------------------------------------|
 * | node by id (working / published copy) | PK=NODE#<id>, SK=DRAFT / PUBLISHED              |
 * | children of a node                    | GSI1: GSI1PK=PARENT#<id>, GSI1SK=NODE#<id>     |
 * | live children, strongly consistent    | PK=NODE#<parent>, SK begins_with CHILD#         |
 * | nodes of a type (e.g. environments)   | GSI2: GSI2PK=TYPE#<nodeType>, GSI2SK=NODE#<id> |
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
 * Deleted nodes move to DELETED#-prefixed index keys, so lists skip them without filtering.
 */
export const TABLE_SCHEMA = {
  partitionKey: 'PK',
  sortKey: 'SK',
  /** Epoch seconds; DynamoDB TTL removes expired items (late: code checks expiry itself). */
  ttlAttribute: 'expiresAtEpoch',
  indexes: [
    { indexName: 'GSI1', partitionKey: 'GSI1PK', sortKey: 'GSI1SK' },
    { indexName: 'GSI2', partitionKey: 'GSI2PK', sortKey: 'GSI2SK' },
  ],
} as const;
