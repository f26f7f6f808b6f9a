/**
 * Pages of one partition (of the table or an index) in key order, read a page at a time: a query reads
 * at most `limit` items and says where the next page starts, so a page costs the same however long the
 * partition is. The position is an opaque string for cursors; a position that is not one of this
 * partition's is refused as bad input, never handed to DynamoDB.
 */
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { dynamoDb } from '#shared/clients/dynamodb.ts';
import { config } from '#shared/config/index.ts';
import { ValidationError } from '#shared/domain/errors.ts';
import { isWellFormedText } from '#shared/domain/well-formed-text.ts';
import type { Item } from './entity.ts';
import { getItem } from './reads.ts';
import { type IndexSchema, TABLE_SCHEMA } from './table-schema.ts';

export interface PartitionPage {
  /** Up to `limit` items, in key order. */
  items: Item[];
  /** Where the next page starts; absent after the last item. */
  next?: string;
}

export interface PartitionQuery {
  partition: string;
  /** The index read (default: the table). */
  index?: IndexSchema;
  sortKeyPrefix?: string;
  /** Newest (greatest key) first. */
  descending?: boolean;
  /** A condition each item must meet (read items that do not still count toward the page). */
  filter?: { expression: string; names: Record<string, string>; values: Record<string, unknown> };
}

const badCursor = () =>
  new ValidationError([
    {
      in: 'query',
      path: '$.cursor',
      rule: 'cursor',
      message: 'is not a cursor of this list; pass nextCursor unchanged',
    },
  ]);

/** The key attributes a position in this partition names. */
const keyAttributes = (index?: IndexSchema) => [
  TABLE_SCHEMA.partitionKey,
  TABLE_SCHEMA.sortKey,
  ...(index ? [index.partitionKey, index.sortKey] : []),
];

function startKey(position: string, query: PartitionQuery): Item {
  let key: unknown;
  try {
    key = JSON.parse(position);
  } catch {
    throw badCursor();
  }
  const names = keyAttributes(query.index);
  const entries = key !== null && typeof key === 'object' ? Object.entries(key) : [];
  const wellFormed =
    entries.length === names.length &&
    entries.every(
      ([name, value]) =>
        // DynamoDB refuses (a 500 here) an empty key value, and one no UTF-8 can carry (a lone surrogate).
        names.includes(name) &&
        typeof value === 'string' &&
        value !== '' &&
        value.length <= 1024 &&
        isWellFormedText(value),
    );
  const partitionAttribute = query.index?.partitionKey ?? TABLE_SCHEMA.partitionKey;
  const sortAttribute = query.index?.sortKey ?? TABLE_SCHEMA.sortKey;
  // It refuses a start outside the query's key condition too.
  const inPartition =
    wellFormed &&
    (key as Item)[partitionAttribute] === query.partition &&
    String((key as Item)[sortAttribute]).startsWith(query.sortKeyPrefix ?? '');
  if (!inPartition) throw badCursor();
  return key as Item;
}

export async function queryPage(
  query: PartitionQuery,
  limit: number,
  { after, consistent = false }: { after?: string; consistent?: boolean } = {},
): Promise<PartitionPage> {
  const partitionAttribute = query.index?.partitionKey ?? TABLE_SCHEMA.partitionKey;
  const sortAttribute = query.index?.sortKey ?? TABLE_SCHEMA.sortKey;
  const input: QueryCommandInput = {
    TableName: config().tableName,
    ...(query.index ? { IndexName: query.index.indexName } : {}),
    KeyConditionExpression: query.sortKeyPrefix ? '#pk = :pk AND begins_with(#sk, :prefix)' : '#pk = :pk',
    ExpressionAttributeNames: {
      '#pk': partitionAttribute,
      ...(query.sortKeyPrefix ? { '#sk': sortAttribute } : {}),
      ...query.filter?.names,
    },
    ExpressionAttributeValues: {
      ':pk': query.partition,
      ...(query.sortKeyPrefix ? { ':prefix': query.sortKeyPrefix } : {}),
      ...query.filter?.values,
    },
    ...(query.filter ? { FilterExpression: query.filter.expression } : {}),
    ...(after ? { ExclusiveStartKey: startKey(after, query) } : {}),
    ...(consistent ? { ConsistentRead: true } : {}),
    ...(query.descending ? { ScanIndexForward: false } : {}),
    Limit: limit,
  };
  const { Items, LastEvaluatedKey } = await dynamoDb().send(new QueryCommand(input));
  return { items: Items ?? [], ...(LastEvaluatedKey ? { next: JSON.stringify(LastEvaluatedKey) } : {}) };
}

/** The position just after `item`, as a page that ends with it gives it (its key attributes). */
export const positionOf = (item: Item, query: PartitionQuery): string =>
  JSON.stringify(Object.fromEntries(keyAttributes(query.index).map((name) => [name, item[name]])));

/**
 * The table item at a position of this partition, or null if it is gone: a page that stops inside what
 * one item stands for (a link of several kinds is several entries) resumes with it. A position that is
 * not the partition's is refused, as for a page.
 */
export async function itemAt(query: PartitionQuery, position: string): Promise<Item | null> {
  if (query.index) throw new Error('itemAt reads items of the table, not of an index');
  return getItem(startKey(position, query) as Record<string, string>);
}
