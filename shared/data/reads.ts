/** Reads by key and by partition, in the shapes every repository needs. */
import { BatchGetCommand, GetCommand, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { dynamoDb } from '#shared/clients/dynamodb.ts';
import { config } from '#shared/config/index.ts';
import { ServiceUnavailableError } from '#shared/domain/errors.ts';
import type { Item } from './entity.ts';

type Key = Record<string, string>;

/** One item by its key, strongly consistent (reads right after writes see them); null when absent. */
export async function getItem(key: Key): Promise<Item | null> {
  const { Item } = await dynamoDb().send(
    new GetCommand({ TableName: config().tableName, Key: key, ConsistentRead: true }),
  );
  return Item ?? null;
}

/** Every item of one partition (of the table or an index), across pages. */
export async function queryAll(
  partitionAttribute: string,
  partition: string,
  options: {
    indexName?: string;
    sortKeyPrefix?: { attribute: string; prefix: string };
    /** Only sort keys from `from` to `to`, both included. */
    sortKeyBetween?: { attribute: string; from: string; to: string };
    consistent?: boolean;
  } = {},
): Promise<Item[]> {
  const { indexName, sortKeyPrefix, sortKeyBetween, consistent } = options;
  const sortKey = sortKeyPrefix ?? sortKeyBetween;
  const input: QueryCommandInput = {
    TableName: config().tableName,
    ...(indexName ? { IndexName: indexName } : {}),
    KeyConditionExpression: sortKeyPrefix
      ? '#pk = :pk AND begins_with(#sk, :prefix)'
      : sortKeyBetween
        ? '#pk = :pk AND #sk BETWEEN :from AND :to'
        : '#pk = :pk',
    ExpressionAttributeNames: {
      '#pk': partitionAttribute,
      ...(sortKey ? { '#sk': sortKey.attribute } : {}),
    },
    ExpressionAttributeValues: {
      ':pk': partition,
      ...(sortKeyPrefix ? { ':prefix': sortKeyPrefix.prefix } : {}),
      ...(sortKeyBetween ? { ':from': sortKeyBetween.from, ':to': sortKeyBetween.to } : {}),
    },
    ...(consistent ? { ConsistentRead: true } : {}),
  };
  const items: Item[] = [];
  let startKey: Item | undefined;
  do {
    const page = await dynamoDb().send(
      new QueryCommand({ ...input, ...(startKey ? { ExclusiveStartKey: startKey } : {}) }),
    );
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
}

const BATCH_GET_LIMIT = 100;
const UNPROCESSED_ATTEMPTS = 6;

/** A projection of top-level attributes, each by a placeholder (any name is safe, reserved words too). */
const projectionOf = (attributes: readonly string[]) => ({
  ProjectionExpression: attributes.map((_, i) => `#a${i}`).join(','),
  ExpressionAttributeNames: Object.fromEntries(attributes.map((name, i) => [`#a${i}`, name])),
});

/**
 * Many items by key, in no particular order (absent ones are left out). Eventually consistent reads cost
 * half; lists use them, as their indexes are eventually consistent anyway. `attributes`: only these (the
 * same capacity, fewer bytes to carry and parse).
 */
export async function batchGetItems(
  keys: Key[],
  { consistent, attributes }: { consistent: boolean; attributes?: readonly string[] },
): Promise<Item[]> {
  const TableName = config().tableName;
  const projection = attributes ? projectionOf(attributes) : {};
  const items: Item[] = [];
  for (let i = 0; i < keys.length; i += BATCH_GET_LIMIT) {
    let pending: Item[] | undefined = keys.slice(i, i + BATCH_GET_LIMIT);
    // DynamoDB may leave keys unprocessed under load; ask again for exactly those.
    for (let attempt = 0; pending && pending.length > 0; attempt++) {
      if (attempt >= UNPROCESSED_ATTEMPTS)
        throw new ServiceUnavailableError('The data store is busy; retry the request');
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** attempt));
      const response: {
        Responses?: Record<string, Item[]>;
        UnprocessedKeys?: Record<string, { Keys?: Item[] }>;
      } = await dynamoDb().send(
        new BatchGetCommand({
          RequestItems: { [TableName]: { Keys: pending, ConsistentRead: consistent, ...projection } },
        }),
      );
      items.push(...(response.Responses?.[TableName] ?? []));
      pending = response.UnprocessedKeys?.[TableName]?.Keys;
    }
  }
  return items;
}
