/** The installation record: whether the first administrator and the Default environment exist. */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoDb } from '#shared/clients/dynamodb.ts';
import { config } from '#shared/config/index.ts';
import { bootstrapKey } from './keys.ts';

export async function isBootstrapped(): Promise<boolean> {
  const { Item } = await dynamoDb.send(
    new GetCommand({ TableName: config().tableName, Key: bootstrapKey(), ConsistentRead: true }),
  );
  return Item !== undefined;
}

export async function markBootstrapped(details: {
  adminPrincipalId: string;
  defaultEnvironmentId: string;
}): Promise<void> {
  await dynamoDb.send(
    new PutCommand({
      TableName: config().tableName,
      Item: {
        ...bootstrapKey(),
        entity: 'Installation',
        ...details,
        bootstrappedAt: new Date().toISOString(),
      },
    }),
  );
}
