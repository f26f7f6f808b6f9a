/**
 * The change feed's items. A change lives in one of CHANGE_SHARDS partitions (by the object's id, so one
 * object's changes stay in order in one partition and no partition is written by every writer), sorted
 * by when it was recorded, to the microsecond:
 *   CHANGES#<shard>  <recordedAt with microseconds>#<changeId>
 * A page of the feed reads every shard from one position up to a horizon, in parallel, and merges them:
 * the position and the horizon are sort keys, so a cursor says exactly which changes were seen.
 * (Positions recorded before microseconds have 3 digits of fraction, and sort after every new position in
 * their millisecond and before the next millisecond: old and new recorders side by side during a deploy
 * order a millisecond's changes oddly, and skip none. Code from before reads no new cursor: no rollback.)
 */
import { BatchWriteCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoDb } from '#shared/clients/dynamodb.ts';
import { config } from '#shared/config/index.ts';
import type { Change } from '#shared/domain/changes.ts';
import { CHANGES_PREFIX } from './keys.ts';
import { TABLE_SCHEMA } from './table-schema.ts';

export const CHANGE_SHARDS = 8;

/** A change with where the object sits (what the feed filters by, never answered). */
export interface StoredChange extends Omit<Change, '@type'> {
  /** The object's ancestors after the change (for a grant: the granted node's). */
  ancestorIds: string[];
  /** Its ancestors before, when a move changed them: a reader who saw it there learns it left. */
  previousAncestorIds: string[] | null;
  /**
   * A relation's other end, placed when it is an object (absent on changes recorded before it was kept):
   * a reader who may not read that object does not see the change, as the relations list hides the link.
   */
  target?: { nodeId: string; ancestorIds: string[] } | null;
}

/** FNV-1a of the id: the same object, the same shard. */
export function changeShardOf(nodeId: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < nodeId.length; i++) {
    hash ^= nodeId.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % CHANGE_SHARDS;
}

/** A time as a position: microseconds added to an ISO time of milliseconds (`….048Z` → `….048000Z`). */
export const timePosition = (isoMillis: string) => isoMillis.replace(/(\.\d{3})Z$/, '$1000Z');

/** Where a change sits: its recording time to the microsecond (a count since the epoch), then its id. */
export function changePosition(recordedAtMicros: number, changeId: string): string {
  const millis = Math.floor(recordedAtMicros / 1000);
  const micros = String(recordedAtMicros - millis * 1000).padStart(3, '0');
  return `${new Date(millis).toISOString().slice(0, -1)}${micros}Z#${changeId}`;
}

/** A change to record, with its place in the feed (changePosition). */
export interface PositionedChange {
  change: StoredChange;
  position: string;
}

/**
 * Writes up to 25 changes in one BatchWriteItem; each item expires `retentionDays` after it was
 * recorded. Returns the changes DynamoDB left unprocessed (to be written again).
 */
export async function putChanges(
  changes: PositionedChange[],
  retentionDays: number,
  abortSignal?: AbortSignal,
): Promise<PositionedChange[]> {
  const TableName = config().tableName;
  const answer = await dynamoDb().send(
    new BatchWriteCommand({
      RequestItems: {
        [TableName]: changes.map(({ change, position }) => ({
          PutRequest: {
            Item: {
              PK: `${CHANGES_PREFIX}${changeShardOf(change.nodeId)}`,
              SK: position,
              ...change,
              [TABLE_SCHEMA.ttlAttribute]:
                Math.ceil(Date.parse(change.recordedAt) / 1000) + retentionDays * 86_400,
            },
          },
        })),
      },
    }),
    { abortSignal },
  );
  const left = new Set(
    (answer.UnprocessedItems?.[TableName] ?? []).map((request) => String(request.PutRequest?.Item?.changeId)),
  );
  return changes.filter(({ change }) => left.has(change.changeId));
}

export interface ChangeRange {
  /** Changes after this position (exclusive). */
  after: string;
  /** Changes before this position (exclusive): the settled horizon. */
  before: string;
  limit: number;
}

export interface ChangeRangePage {
  /** In feed order, at most `limit`. */
  changes: StoredChange[];
  /** Where the next page starts: the last change of the page, or `before` once the range is exhausted. */
  position: string;
  /** Changes remain in the range beyond `position`. */
  more: boolean;
}

/** A change as the recorder stored it, less its keys and expiry (from a read, or the stream's image). */
export const storedChangeOf = (item: Record<string, unknown>): StoredChange => {
  const { PK: _pk, SK: _sk, [TABLE_SCHEMA.ttlAttribute]: _ttl, ...change } = item;
  return change as unknown as StoredChange;
};

/** Up to `limit` changes between two positions, in order: every shard read at once, and merged. */
export async function readChangeRange({ after, before, limit }: ChangeRange): Promise<ChangeRangePage> {
  const TableName = config().tableName;
  const shards = await Promise.all(
    Array.from({ length: CHANGE_SHARDS }, async (_, shard) => {
      const answer = await dynamoDb().send(
        new QueryCommand({
          TableName,
          // BETWEEN includes its ends: `after` itself is dropped below, so read one more.
          KeyConditionExpression: 'PK = :pk AND SK BETWEEN :after AND :before',
          ExpressionAttributeValues: {
            ':pk': `${CHANGES_PREFIX}${shard}`,
            ':after': after,
            ':before': before,
          },
          Limit: limit + 1,
          // A change put just before the horizon must be seen by the page that passes it.
          ConsistentRead: true,
        }),
      );
      const items = (answer.Items ?? []).filter((item) => item.SK !== after && item.SK !== before);
      return { items, truncated: answer.LastEvaluatedKey !== undefined };
    }),
  );
  // Each shard gave up to `limit` changes after `after`: the first `limit` of them all are the first
  // `limit` of the range, since a shard cut short has already shown `limit` changes before its rest.
  const merged = shards.flatMap((s) => s.items).sort((a, b) => (String(a.SK) < String(b.SK) ? -1 : 1));
  const page = merged.slice(0, limit);
  const more = shards.some((s) => s.truncated) || merged.length > limit;
  // A page that ends the range has seen everything before the horizon: the next starts there.
  const position = !more ? before : String(page.at(-1)?.SK ?? after);
  return { changes: page.map(storedChangeOf), position, more };
}
