import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoDb } from '#shared/clients/dynamodb.ts';
import { config } from '#shared/config/index.ts';
import type { Settings } from '#shared/domain/settings.ts';
import { settings as settingsEntity } from './entities/installation.ts';
import { settingsKey } from './keys.ts';
import { getItem } from './reads.ts';

export async function findSettings(): Promise<Settings | null> {
  const item = await getItem(settingsKey());
  if (!item) return null;
  const { sessionTimeoutMinutes, webTokenExpiresInDays } = settingsEntity.fromItem(item);
  return { sessionTimeoutMinutes, webTokenExpiresInDays };
}

export async function saveSettings(settings: Settings, changedBy: string): Promise<void> {
  await dynamoDb().send(
    new PutCommand({
      TableName: config().tableName,
      Item: settingsEntity.toItem({ ...settings, changedBy, changedAt: new Date().toISOString() }),
    }),
  );
}
