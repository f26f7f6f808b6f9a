/** Counters of failed logins, per username and per source address, expiring with their window (TTL). */
import { BatchGetCommand, DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoDb } from '#shared/clients/dynamodb.ts';
import { config } from '#shared/config/index.ts';
import type { FailureWindow } from '#shared/domain/login-throttle.ts';
import { writtenIfHeld } from './conditional-writes.ts';
import { loginFailures, type ThrottleSubject } from './entities/users.ts';
import { loginFailuresKey } from './keys.ts';
import { TABLE_SCHEMA } from './table-schema.ts';

export type { ThrottleSubject };

const TTL = TABLE_SCHEMA.ttlAttribute;

export async function findFailureWindows(subjects: ThrottleSubject[]): Promise<(FailureWindow | null)[]> {
  const TableName = config().tableName;
  const keys = subjects.map(loginFailuresKey);
  const { Responses } = await dynamoDb().send(
    new BatchGetCommand({ RequestItems: { [TableName]: { Keys: keys, ConsistentRead: true } } }),
  );
  const items = Responses?.[TableName] ?? [];
  return keys.map((key) => {
    const item = items.find((i) => i.PK === key.PK);
    if (!item) return null;
    const { count, expiresAtEpoch } = loginFailures.fromItem(item);
    return { count, endsAt: expiresAtEpoch };
  });
}

/** Counts one failure in the subject's current window, opening a new window when the last one ended. */
export async function countFailure(
  subject: ThrottleSubject,
  nowSeconds: number,
  windowSeconds: number,
): Promise<void> {
  const TableName = config().tableName;
  const counted = await writtenIfHeld(
    dynamoDb().send(
      new UpdateCommand({
        TableName,
        Key: loginFailuresKey(subject),
        UpdateExpression: 'ADD #count :one',
        ConditionExpression: '#ttl > :now',
        ExpressionAttributeNames: { '#count': 'count', '#ttl': TTL },
        ExpressionAttributeValues: { ':one': 1, ':now': nowSeconds },
      }),
    ),
  );
  if (counted) return;
  await dynamoDb().send(
    new PutCommand({
      TableName,
      Item: loginFailures.toItem({ count: 1, expiresAtEpoch: nowSeconds + windowSeconds }, subject),
    }),
  );
}

export async function clearFailures(subject: ThrottleSubject): Promise<void> {
  await dynamoDb().send(new DeleteCommand({ TableName: config().tableName, Key: loginFailuresKey(subject) }));
}
