import { GetCommand, paginateQuery, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { dynamoDb } from '#shared/clients/dynamodb.ts';
import { config } from '#shared/config/index.ts';
import { retryableAsUnavailable } from './dynamo-errors.ts';

/** One item by its key, strongly consistent (reads right after writes see them); null when absent. */
export async function getItem(key: Record<string, string>): Promise<Record<string, unknown> | null> {
  try {
    const { Item } = await dynamoDb.send(
      new GetCommand({ TableName: config().tableName, Key: key, ConsistentRead: true }),
    );
    return Item ?? null;
  } catch (error) {
    return retryableAsUnavailable(error);
  }
}

/** Every item of one partition (of the table or an index), across pages. */
export async function queryAll(
  partitionAttribute: string,
  partition: string,
  options: {
    indexName?: string;
    sortKeyPrefix?: { attribute: string; prefix: string };
    consistent?: boolean;
  } = {},
): Promise<Record<string, unknown>[]> {
  const { indexName, sortKeyPrefix, consistent } = options;
  const input: QueryCommandInput = {
    TableName: config().tableName,
    ...(indexName ? { IndexName: indexName } : {}),
    KeyConditionExpression: sortKeyPrefix ? '#pk = :pk AND begins_with(#sk, :prefix)' : '#pk = :pk',
    ExpressionAttributeNames: {
      '#pk': partitionAttribute,
      ...(sortKeyPrefix ? { '#sk': sortKeyPrefix.attribute } : {}),
    },
    ExpressionAttributeValues: {
      ':pk': partition,
      ...(sortKeyPrefix ? { ':prefix': sortKeyPrefix.prefix } : {}),
    },
    ...(consistent ? { ConsistentRead: true } : {}),
  };
  const items: Record<string, unknown>[] = [];
  try {
    for await (const page of paginateQuery({ client: dynamoDb }, input)) items.push(...(page.Items ?? []));
  } catch (error) {
    retryableAsUnavailable(error);
  }
  return items;
}
