import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoDb } from '#shared/clients/dynamodb.ts';
import { config } from '#shared/config/index.ts';
import type { Settings } from '#shared/domain/settings.ts';
import { retryableAsUnavailable } from './dynamo-errors.ts';
import { settingsKey } from './keys.ts';
import { getItem } from './reads.ts';

export async function findSettings(): Promise<Settings | null> {
  const item = await getItem(settingsKey());
  return item
    ? {
        sessionTimeoutMinutes: Number(item.sessionTimeoutMinutes),
        webTokenExpiresInDays: Number(item.webTokenExpiresInDays),
      }
    : null;
}

export async function saveSettings(settings: Settings, changedBy: string): Promise<void> {
  try {
    await dynamoDb().send(
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
