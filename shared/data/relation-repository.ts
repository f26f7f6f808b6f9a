/**
 * Relations as stored: each link is two items written together, one in each end's partition,
 *   NODE#<from>  REL#OUT#<name>#<to>     (in USER#<principalId> for a user end)
 *   NODE#<to>    REL#IN#<name>#<from>
 * so an object's relations in both directions are one strongly consistent Query of its own partition.
 * Each item says whether it is `counted`: whether its other end is live. An object's counts (RELCOUNTS,
 * one small item in its partition) are the number of its counted items per category, and every change
 * of an item's `counted` flag or existence changes the count in the same transaction, conditioned on the
 * flag as read: counts never drift from the items.
 *
 * A link is refused unless both ends are live (condition checks on their node items), so once a node is
 * deleted no link can be added to it; its delete then clears the flag of the items about it in the other
 * partitions (`settleRelationsOf`), and its restore sets them again.
 */
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { dynamoDb } from '#shared/clients/dynamodb.ts';
import { config } from '#shared/config/index.ts';
import {
  countCategoryOf,
  noRelationCounts,
  RELATION_COUNTS,
  RESPONSIBILITY_KINDS,
  type RelationCounts,
  USER_END,
} from '#shared/domain/relations.ts';
import { defineEntity, type Item } from './entity.ts';
import { nodeKey, userKey } from './keys.ts';
import { batchGetItems, queryAll } from './reads.ts';
import { TABLE_SCHEMA } from './table-schema.ts';

export const RELATION_PREFIX = 'REL#';
const RELATION_COUNTS_SK = 'RELCOUNTS';

const partitionOfEnd = (id: string, type: string) => (type === USER_END ? userKey(id).PK : nodeKey(id).PK);

export const relationItemKey = (
  selfId: string,
  selfType: string,
  direction: 'out' | 'in',
  name: string,
  otherId: string,
) => ({
  PK: partitionOfEnd(selfId, selfType),
  SK: `${RELATION_PREFIX}${direction.toUpperCase()}#${name}#${otherId}`,
});
export const relationCountsKey = (nodeId: string) => ({ PK: nodeKey(nodeId).PK, SK: RELATION_COUNTS_SK });

const relationSchema = z.object({
  selfId: z.string(),
  selfType: z.string(),
  direction: z.enum(['out', 'in']),
  name: z.string(),
  otherId: z.string(),
  otherType: z.string(),
  /** The responsibility kinds of a responsibility link (empty for any other relation). */
  kinds: z.array(z.enum(RESPONSIBILITY_KINDS)),
  counted: z.boolean(),
  /** Every change of the item adds one; writes are conditioned on the revision read. */
  revision: z.number(),
  createdAt: z.string(),
  createdByName: z.nullable(z.string()),
  /**
   * The principal whose link, or change of a responsibility's kinds, wrote the item last: the change
   * feed's `by` (absent on items written before it was kept).
   */
  changedBy: z.optional(z.string()),
  /** When that write was made: the change feed's `at` (absent before it was kept: createdAt then). */
  changedAt: z.optional(z.string()),
});
export type StoredRelation = z.output<typeof relationSchema>;

const relations = defineEntity({
  name: 'relation',
  schema: relationSchema,
  keys: (r: StoredRelation) => relationItemKey(r.selfId, r.selfType, r.direction, r.name, r.otherId),
});

/** The same link seen from its other end. */
export const mirrorOf = (r: StoredRelation): StoredRelation => ({
  ...r,
  selfId: r.otherId,
  selfType: r.otherType,
  otherId: r.selfId,
  otherType: r.selfType,
  direction: r.direction === 'out' ? 'in' : 'out',
});

/** The keys of a link's two items: in the source's partition (out) and in the target's (in). */
export const linkKeys = (
  source: { id: string; type: string },
  name: string,
  target: { id: string; type: string },
) => ({
  outKey: relationItemKey(source.id, source.type, 'out', name, target.id),
  inKey: relationItemKey(target.id, target.type, 'in', name, source.id),
});

export const relationOf = (item: Item): StoredRelation => relations.fromItem(item);

export const keyOf = (r: StoredRelation) =>
  relationItemKey(r.selfId, r.selfType, r.direction, r.name, r.otherId);

/** Every relation item of an object (or user), both directions, strongly consistent. */
export async function findRelationsOf(
  selfId: string,
  selfType: string,
  prefix = '',
): Promise<StoredRelation[]> {
  const items = await queryAll(TABLE_SCHEMA.partitionKey, partitionOfEnd(selfId, selfType), {
    sortKeyPrefix: { attribute: TABLE_SCHEMA.sortKey, prefix: `${RELATION_PREFIX}${prefix}` },
    consistent: true,
  });
  return items.map((item) => relations.fromItem(item));
}

/** One relation item, or null. */
export async function findRelation(key: { PK: string; SK: string }): Promise<StoredRelation | null> {
  const [item] = await batchGetItems([key], { consistent: true });
  return item ? relations.fromItem(item) : null;
}

/**
 * Whether a node may have relations (items, counts): unless it is marked as having none. Every node made
 * since the mark exists starts so and a link marks it (endIsLive); a node stored before lacks the mark.
 */
export const mayHaveRelations = (node: { hasRelations?: boolean | undefined }) => node.hasRelations !== false;

/**
 * The relation counts of listed objects: read for those that may have relations (the others have none).
 * A published copy may predate the mark, so published copies are all read.
 */
export function readRelationCountsOf(
  nodes: { nodeId: string; hasRelations?: boolean | undefined }[],
  copy: 'DRAFT' | 'PUBLISHED',
): Promise<Map<string, RelationCounts>> {
  return readRelationCounts(
    nodes.filter((node) => copy === 'PUBLISHED' || mayHaveRelations(node)).map((node) => node.nodeId),
  );
}

/** The kept counts of the given objects (absent: all zero). Eventually consistent, as lists are. */
export async function readRelationCounts(nodeIds: string[]): Promise<Map<string, RelationCounts>> {
  const unique = [...new Set(nodeIds)];
  const items =
    unique.length > 0 ? await batchGetItems(unique.map(relationCountsKey), { consistent: false }) : [];
  const byId = new Map(items.map((item) => [String(item.PK).slice('NODE#'.length), item]));
  return new Map(
    unique.map((nodeId) => {
      const item = byId.get(nodeId) ?? {};
      const counts = noRelationCounts();
      for (const name of ['relationCount', ...RELATION_COUNTS] as const) {
        const value = item[name];
        // A count is never shown below zero, whatever happened to a cut-short settle.
        if (typeof value === 'number') counts[name] = Math.max(0, value);
      }
      return [nodeId, counts];
    }),
  );
}

type TransactItem = Record<string, unknown>;

/** Count changes by nodeId, then by count name. */
export type RelationCountDeltas = Map<string, Map<string, number>>;

/** How replacing `before` by `after` (either absent) changes the counts of the item's own end. */
export function countChange(
  deltas: RelationCountDeltas,
  before: StoredRelation | null,
  after: StoredRelation | null,
): void {
  if (before?.counted) addCount(deltas, before, -1);
  if (after?.counted) addCount(deltas, after, 1);
}

/** What an item's being counted adds to its own end's counts (nothing for a user end). */
function addCount(deltas: RelationCountDeltas, r: StoredRelation, sign: 1 | -1): void {
  if (r.selfType === USER_END) return;
  const counts = deltas.get(r.selfId) ?? new Map<string, number>();
  counts.set('relationCount', (counts.get('relationCount') ?? 0) + sign);
  const category = countCategoryOf(r.direction, r.name, r.otherType);
  if (category) counts.set(category, (counts.get(category) ?? 0) + sign);
  deltas.set(r.selfId, counts);
}

export function countUpdateItems(deltas: RelationCountDeltas, TableName: string): TransactItem[] {
  return [...deltas].flatMap(([nodeId, counts]) => {
    const changed = [...counts].filter(([, delta]) => delta !== 0);
    if (changed.length === 0) return [];
    return [
      {
        Update: {
          TableName,
          Key: relationCountsKey(nodeId),
          UpdateExpression: `ADD ${changed.map((_, i) => `#c${i} :c${i}`).join(', ')}`,
          ExpressionAttributeNames: Object.fromEntries(changed.map(([name], i) => [`#c${i}`, name])),
          ExpressionAttributeValues: Object.fromEntries(changed.map(([, delta], i) => [`:c${i}`, delta])),
        },
      },
    ];
  });
}

/**
 * The end must be live: a node not deleted, or an existing user. A node without relations yet is marked
 * `hasRelations` by the same transaction (lists read relation counts of marked nodes only).
 */
export function endIsLive(
  end: { id: string; type: string; hasRelations?: boolean },
  TableName: string,
): TransactItem {
  if (end.type === USER_END) {
    return {
      ConditionCheck: { TableName, Key: userKey(end.id), ConditionExpression: 'attribute_exists(PK)' },
    };
  }
  const live = {
    TableName,
    Key: nodeKey(end.id),
    ConditionExpression: 'deleted = :false',
    ExpressionAttributeValues: { ':false': false },
  };
  if (end.hasRelations) return { ConditionCheck: live };
  return {
    Update: {
      ...live,
      UpdateExpression: 'SET hasRelations = :true',
      ExpressionAttributeValues: { ':false': false, ':true': true },
    },
  };
}

/** The item must be as it was read (or absent, when it was). */
export function asRead(read: StoredRelation | null): {
  ConditionExpression: string;
  ExpressionAttributeValues?: Record<string, unknown>;
} {
  if (!read) return { ConditionExpression: 'attribute_not_exists(PK)' };
  return {
    ConditionExpression: 'revision = :revision',
    ExpressionAttributeValues: { ':revision': read.revision },
  };
}

/** Writes one transaction (the retry policy retries it when it only met another one). */
export async function transact(items: TransactItem[]): Promise<void> {
  if (items.length === 0) return;
  await dynamoDb().send(new TransactWriteCommand({ TransactItems: items as never }));
}

export const relationItem = (r: StoredRelation): Item => relations.toItem(r);

export const tableName = () => config().tableName;
