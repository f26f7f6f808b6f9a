/** Counters of failed logins, per username and per source address, expiring with their window (TTL). */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoDb } from '#shared/clients/dynamodb.ts';
import { config } from '#shared/config/index.ts';
import type { FailureWindow } from '#shared/domain/login-throttle.ts';
import { retryableAsUnavailable } from './dynamo-errors.ts';
import { TABLE_SCHEMA } from './table-schema.ts';

export type ThrottleSubject = { kind: 'user'; username: string } | { kind: 'source'; address: string };

const subjectKey = (subject: ThrottleSubject) => ({
  PK:
    subject.kind === 'user'
      ? `LOGIN_FAILURES#USER#${subject.username.toLowerCase()}`
      : `LOGIN_FAILURES#SOURCE#${subject.address}`,
  SK: 'WINDOW',
});

export async function findFailureWindows(subjects: ThrottleSubject[]): Promise<(FailureWindow | null)[]> {
  const TableName = config().tableName;
  const keys = subjects.map(subjectKey);
  try {
    const { Responses } = await dynamoDb().send(
      new BatchGetCommand({ RequestItems: { [TableName]: { Keys: keys, ConsistentRead: true } } }),
    );
    const items = Responses?.[TableName] ?? [];
    return keys.map((key) => {
      const item = items.find((i) => i.PK === key.PK);
      return item ? { count: Number(item.count), endsAt: Number(item[TABLE_SCHEMA.ttlAttribute]) } : null;
    });
  } catch (error) {
    return retryableAsUnavailable(error);
  }
}

/** Counts one failure in the subject's current window, opening a new window when the last one ended. */
export async function countFailure(
  subject: ThrottleSubject,
  nowSeconds: number,
  windowSeconds: number,
): Promise<void> {
  const TableName = config().tableName;
  const ttl = TABLE_SCHEMA.ttlAttribute;
  try {
    await dynamoDb().send(
      new UpdateCommand({
        TableName,
        Key: subjectKey(subject),
        UpdateExpression: 'ADD #count :one',
        ConditionExpression: '#ttl > :now',
        ExpressionAttributeNames: { '#count': 'count', '#ttl': ttl },
        ExpressionAttributeValues: { ':one': 1, ':now': nowSeconds },
      }),
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) return retryableAsUnavailable(error);
    await dynamoDb()
      .send(
        new PutCommand({
          TableName,
          Item: {
            ...subjectKey(subject),
            entity: 'LoginFailures',
            count: 1,
            [ttl]: nowSeconds + windowSeconds,
          },
        }),
      )
      .catch(retryableAsUnavailable);
  }
}

export async function clearFailures(subject: ThrottleSubject): Promise<void> {
  await dynamoDb()
    .send(new DeleteCommand({ TableName: config().tableName, Key: subjectKey(subject) }))
    .catch(retryableAsUnavailable);
}
