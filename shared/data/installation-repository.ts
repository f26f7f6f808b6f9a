/** The installation record: whether the first administrator and the Default environment exist. */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoDb } from '#shared/clients/dynamodb.ts';
import { config } from '#shared/config/index.ts';
import { installation } from './entities/installation.ts';
import { bootstrapKey } from './keys.ts';
import { getItem } from './reads.ts';

export async function isBootstrapped(): Promise<boolean> {
  return (await getItem(bootstrapKey())) !== null;
}

export async function markBootstrapped(details: {
  adminPrincipalId: string;
  defaultEnvironmentId: string;
}): Promise<void> {
  await dynamoDb().send(
    new PutCommand({
      TableName: config().tableName,
      Item: installation.toItem({ ...details, bootstrappedAt: new Date().toISOString() }),
    }),
  );
}
