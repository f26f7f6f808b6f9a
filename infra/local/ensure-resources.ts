/** Creates the table (from the shared table schema) and the bucket on the embedded stack, once. */
import {
  CreateTableCommand,
  DescribeTimeToLiveCommand,
  DynamoDBClient,
  ResourceInUseException,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { CreateBucketCommand, HeadBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { EMBEDDED_CREDENTIALS } from '#shared/clients/aws-client-settings.ts';
import { TABLE_SCHEMA } from '#shared/data/table-schema.ts';

const credentials = EMBEDDED_CREDENTIALS;

export async function ensureTable(endpoint: string, tableName: string): Promise<void> {
  const client = new DynamoDBClient({ endpoint, region: 'us-east-1', credentials });
  try {
    const keyAttributes = [
      TABLE_SCHEMA.partitionKey,
      TABLE_SCHEMA.sortKey,
      ...TABLE_SCHEMA.indexes.flatMap((i) => [i.partitionKey, i.sortKey]),
    ];
    await client.send(
      new CreateTableCommand({
        TableName: tableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: keyAttributes.map((AttributeName) => ({ AttributeName, AttributeType: 'S' })),
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
          Projection: { ProjectionType: 'ALL' },
        })),
      }),
    );
  } catch (error) {
    if (!(error instanceof ResourceInUseException)) throw error;
  }
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
