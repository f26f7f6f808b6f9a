/**
 * The embedded DynamoDB's stream behaves as a DynamoDB stream (NEW_AND_OLD_IMAGES) read by Lambda:
 * every item a committed write changed, in commit order, with its images; nothing for a refused write;
 * a batch the consumer fails is handed over again, whole. And the gateway still answers each caller
 * what it asked for (no return values it did not ask for).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand,
  DynamoDBDocumentClient,
  PutCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalStream, type StreamRecord } from '#infra/local/dynamodb-stream.ts';
import { ensureTable } from '#infra/local/ensure-resources.ts';
import { type LocalDynamoDb, startLocalDynamoDb } from '#infra/local/local-dynamodb.ts';
import { EMBEDDED_CREDENTIALS } from '#shared/clients/aws-client-settings.ts';

const TableName = 'stream-test';
let dataDir: string;
let local: LocalDynamoDb;
let ddb: DynamoDBDocumentClient;
const delivered: StreamRecord[][] = [];
let failNext = 0;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'stream-test-'));
  local = await startLocalDynamoDb({ dataDir });
  await ensureTable(local.endpoint, TableName);
  ddb = DynamoDBDocumentClient.from(
    new DynamoDBClient({ endpoint: local.endpoint, region: 'us-east-1', credentials: EMBEDDED_CREDENTIALS }),
  );
  local.stream.consume(async ({ Records }) => {
    if (failNext > 0) {
      failNext -= 1;
      throw new Error('consumer failed');
    }
    delivered.push(Records);
  });
});
afterAll(async () => {
  ddb.destroy();
  await local.stream.drain();
  await local.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The records delivered since the last call, as plain objects. */
async function received() {
  await local.stream.drain();
  const records = delivered.splice(0).flat();
  return records.map((r) => ({
    eventName: r.eventName,
    keys: unmarshall(r.dynamodb.Keys),
    old: r.dynamodb.OldImage && unmarshall(r.dynamodb.OldImage),
    new: r.dynamodb.NewImage && unmarshall(r.dynamodb.NewImage),
  }));
}

describe('the local DynamoDB stream', () => {
  it('reports puts, updates and deletes with their images, and answers only what was asked', async () => {
    const key = { PK: 'A', SK: '1' };
    const put = await ddb.send(new PutCommand({ TableName, Item: { ...key, v: 1 } }));
    expect(put.Attributes).toBeUndefined();
    const update = await ddb.send(
      new UpdateCommand({
        TableName,
        Key: key,
        UpdateExpression: 'SET v = :v',
        ExpressionAttributeValues: { ':v': 2 },
      }),
    );
    expect(update.Attributes).toBeUndefined();
    const replaced = await ddb.send(
      new PutCommand({ TableName, Item: { ...key, v: 3 }, ReturnValues: 'ALL_OLD' }),
    );
    expect(replaced.Attributes).toEqual({ ...key, v: 2 });
    await ddb.send(new DeleteCommand({ TableName, Key: key }));
    expect(await received()).toEqual([
      { eventName: 'INSERT', keys: key, old: undefined, new: { ...key, v: 1 } },
      { eventName: 'MODIFY', keys: key, old: { ...key, v: 1 }, new: { ...key, v: 2 } },
      { eventName: 'MODIFY', keys: key, old: { ...key, v: 2 }, new: { ...key, v: 3 } },
      { eventName: 'REMOVE', keys: key, old: { ...key, v: 3 }, new: undefined },
    ]);
  });

  it('reports nothing for a write whose condition fails, and every item of a transaction', async () => {
    await expect(
      ddb.send(
        new PutCommand({
          TableName,
          Item: { PK: 'B', SK: '1' },
          ConditionExpression: 'attribute_exists(PK)',
        }),
      ),
    ).rejects.toThrow();
    await ddb.send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName, Item: { PK: 'C', SK: '1', v: 1 } } },
          { Put: { TableName, Item: { PK: 'C', SK: '2', v: 1 } } },
        ],
      }),
    );
    const records = await received();
    expect(records.map((r) => [r.eventName, r.keys.SK])).toEqual([
      ['INSERT', '1'],
      ['INSERT', '2'],
    ]);
  });

  it('hands a batch the consumer failed over again, whole and in order', async () => {
    failNext = 2;
    await ddb.send(new PutCommand({ TableName, Item: { PK: 'D', SK: '1' } }));
    await ddb.send(new PutCommand({ TableName, Item: { PK: 'D', SK: '2' } }));
    const records = await received();
    expect(failNext).toBe(0);
    expect(records.map((r) => r.keys.SK)).toEqual(['1', '2']);
  });

  it('never reports a sequence number or event id again, not even after a restart', async () => {
    const idsOf = async (stream: LocalStream, count: number) => {
      const seen: StreamRecord[] = [];
      stream.consume(async ({ Records }) => {
        seen.push(...Records);
      });
      for (let i = 0; i < count; i++) stream.changed({ PK: { S: 'P' }, SK: { S: String(i) } }, undefined, {});
      await stream.drain();
      await stream.close();
      return seen.map((r) => ({ id: r.eventID, sequence: r.dynamodb.SequenceNumber }));
    };
    const first = await idsOf(new LocalStream(), 3);
    await new Promise((resolve) => setTimeout(resolve, 2));
    // The embedded stack started again: a new stream over the same table.
    const second = await idsOf(new LocalStream(), 3);
    const all = [...first, ...second];
    expect(new Set(all.map((r) => r.id)).size).toBe(6);
    // Numeric strings of one width: they order as numbers do, in the order the writes were reported.
    const sequences = all.map((r) => r.sequence);
    expect(sequences.every((n) => n.length === (sequences[0] as string).length)).toBe(true);
    expect([...sequences].sort()).toEqual(sequences);
  });
});
