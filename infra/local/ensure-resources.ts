/** Creates the table (from the shared table schema) and the bucket on the embedded stack, once. */
import {
  CreateTableCommand,
  type CreateTableCommandInput,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  DynamoDBClient,
  ResourceInUseException,
  UpdateTimeToLiveCommand,
  waitUntilTableExists,
} from '@aws-sdk/client-dynamodb';
import { CreateBucketCommand, HeadBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { EMBEDDED_CREDENTIALS } from '#shared/clients/aws-client-settings.ts';
import { TABLE_SCHEMA } from '#shared/data/table-schema.ts';

const credentials = EMBEDDED_CREDENTIALS;

/** A table kept in the data folder from an older version may lack indexes this version reads. */
async function requireIndexes(client: DynamoDBClient, tableName: string): Promise<void> {
  const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
  const present = new Set((Table?.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName));
  const missing = TABLE_SCHEMA.indexes.filter((index) => !present.has(index.indexName));
  if (missing.length > 0) {
    throw new Error(
      `The table ${tableName} in the data folder lacks the indexes ${missing.map((i) => i.indexName).join(', ')} ` +
        'that this version needs: move the data folder (DATA_DIR, .data/ by default) aside and start again',
    );
  }
}

/** The CreateTable request of the shared table schema: sort attributes shared by indexes defined once. */
export function createTableInput(tableName: string): CreateTableCommandInput {
  const keyAttributes = new Set([
    TABLE_SCHEMA.partitionKey,
    TABLE_SCHEMA.sortKey,
    ...TABLE_SCHEMA.indexes.flatMap((i) => [i.partitionKey, i.sortKey]),
  ]);
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [...keyAttributes].map((AttributeName) => ({ AttributeName, AttributeType: 'S' })),
    KeySchema: [
      { AttributeName: TABLE_SCHEMA.partitionKey, KeyType: 'HASH' },
      { AttributeName: TABLE_SCHEMA.sortKey, KeyType: 'RANGE' },
    ],
    GlobalSecondaryIndexes: TABLE_SCHEMA.indexes.map((index) => ({
      IndexName: index.indexName,
      KeySchema: [
        { AttributeName: index.partitionKey, KeyType: 'HASH' },
        { AttributeName: index.sortKey, KeyType: 'RANGE' },
      ],
      Projection:
        index.projection === 'ALL'
          ? { ProjectionType: 'ALL' }
          : { ProjectionType: 'INCLUDE', NonKeyAttributes: [...index.projection] },
    })),
  };
}

/**
 * Waits until a table takes item calls. A new table is CREATING for a while (seconds on AWS, a timer tick or
 * `createTableMs` on the embedded stack) and answers them ResourceNotFoundException until then.
 */
export async function tableActive(client: DynamoDBClient, tableName: string): Promise<void> {
  await waitUntilTableExists(
    { client, minDelay: 0.01, maxDelay: 1, maxWaitTime: 120 },
    { TableName: tableName },
  );
}

/** Creates a table and answers once it takes item calls. */
export async function createActiveTable(
  client: DynamoDBClient,
  input: CreateTableCommandInput,
): Promise<void> {
  await client.send(new CreateTableCommand(input));
  await tableActive(client, String(input.TableName));
}

export async function ensureTable(endpoint: string, tableName: string): Promise<void> {
  const client = new DynamoDBClient({ endpoint, region: 'us-east-1', credentials });
  try {
    await client.send(new CreateTableCommand(createTableInput(tableName)));
  } catch (error) {
    if (!(error instanceof ResourceInUseException)) throw error;
  }
  // Also a table found: another start may have created it a moment ago.
  await tableActive(client, tableName);
  await requireIndexes(client, tableName);
  const { TimeToLiveDescription } = await client.send(
    new DescribeTimeToLiveCommand({ TableName: tableName }),
  );
  if (TimeToLiveDescription?.TimeToLiveStatus !== 'ENABLED') {
    await client.send(
      new UpdateTimeToLiveCommand({
        TableName: tableName,
        TimeToLiveSpecification: { Enabled: true, AttributeName: TABLE_SCHEMA.ttlAttribute },
      }),
    );
  }
  client.destroy();
}

export async function ensureBucket(endpoint: string, bucketName: string): Promise<void> {
  const client = new S3Client({ endpoint, region: 'us-east-1', credentials, forcePathStyle: true });
  try {
    await client.send(new HeadBucketCommand({ Bucket: bucketName }));
  } catch {
    await client.send(new CreateBucketCommand({ Bucket: bucketName }));
  }
  client.destroy();
}
