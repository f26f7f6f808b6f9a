import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoDb } from '#shared/clients/dynamodb.ts';
import { config } from '#shared/config/index.ts';
import type { Settings } from '#shared/domain/settings.ts';
import { retryableAsUnavailable } from './dynamo-errors.ts';
import { settingsKey } from './keys.ts';

export async function findSettings(): Promise<Settings | null> {
  try {
    const { Item } = await dynamoDb.send(
      new GetCommand({ TableName: config().tableName, Key: settingsKey(), ConsistentRead: true }),
    );
    return Item
      ? {
          sessionTimeoutMinutes: Number(Item.sessionTimeoutMinutes),
          webTokenExpiresInDays: Number(Item.webTokenExpiresInDays),
        }
      : null;
  } catch (error) {
    return retryableAsUnavailable(error);
  }
}

export async function saveSettings(settings: Settings, changedBy: string): Promise<void> {
  try {
    await dynamoDb.send(
      new PutCommand({
        TableName: config().tableName,
        Item: {
          ...settingsKey(),
          entity: 'Settings',
          ...settings,
          changedBy,
          changedAt: new Date().toISOString(),
        },
      }),
    );
  } catch (error) {
    retryableAsUnavailable(error);
  }
}
