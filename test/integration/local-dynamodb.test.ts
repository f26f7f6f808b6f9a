/**
 * The embedded DynamoDB's transactions and TTL behave as DynamoDB's do: all-or-nothing, with one
 * cancellation reason per action, and expired items swept; and its index reads can lag the table.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CreateTableCommand,
  DescribeTimeToLiveCommand,
  DynamoDBClient,
  ResourceNotFoundException,
  TransactionCanceledException,
  TransactionConflictException,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import {
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactGetCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActiveTable, ensureTable } from '#infra/local/ensure-resources.ts';
import { type LocalDynamoDb, startLocalDynamoDb } from '#infra/local/local-dynamodb.ts';
import { EMBEDDED_CREDENTIALS } from '#shared/clients/aws-client-settings.ts';

const TableName = 'transactions-test';
let dataDir: string;
let local: LocalDynamoDb;
let db: DynamoDBDocumentClient;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'local-dynamodb-'));
  local = await startLocalDynamoDb({ dataDir, ttlSweepSeconds: 3600 });
  const client = new DynamoDBClient({
    endpoint: local.endpoint,
    region: 'us-east-1',
    credentials: EMBEDDED_CREDENTIALS,
  });
  db = DynamoDBDocumentClient.from(client);
  await createActiveTable(client, byId(TableName));
});

/** A table keyed by `id` alone. */
function byId(name: string) {
  return {
    TableName: name,
    BillingMode: 'PAY_PER_REQUEST' as const,
    AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' as const }],
    KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' as const }],
  };
}
afterAll(async () => {
  await local.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const get = async (id: string) =>
  (await db.send(new GetCommand({ TableName, Key: { id }, ConsistentRead: true }))).Item;

async function cancellation(promise: Promise<unknown>): Promise<TransactionCanceledException> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TransactionCanceledException);
  return error as TransactionCanceledException;
}

describe('TransactWriteItems', () => {
  it('applies every action when every condition holds', async () => {
    await db.send(new PutCommand({ TableName, Item: { id: 'a0' } }));
    await db.send(new PutCommand({ TableName, Item: { id: 'a1', n: 1 } }));
    await db.send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName, Item: { id: 'a2', n: 2 }, ConditionExpression: 'attribute_not_exists(id)' } },
          {
            Update: {
              TableName,
              Key: { id: 'a1' },
              UpdateExpression: 'SET n = n + :one',
              ConditionExpression: 'n = :one',
              ExpressionAttributeValues: { ':one': 1 },
            },
          },
          { ConditionCheck: { TableName, Key: { id: 'a0' }, ConditionExpression: 'attribute_exists(id)' } },
        ],
      }),
    );
    expect(await get('a1')).toEqual({ id: 'a1', n: 2 });
    expect(await get('a2')).toEqual({ id: 'a2', n: 2 });
    expect(await get('a0')).toEqual({ id: 'a0' });
    // On disk as one group, which a crash keeps whole or drops whole.
    const journal = readFileSync(join(dataDir, 'dynamodb.journal'), 'utf8');
    const group = journal.slice(journal.lastIndexOf('g\t'));
    expect(group).toMatch(/^g\t\d+\n/);
    expect(group).toContain('"a2"');
    expect(group).toContain('"a1"');
  });

  it('writes nothing when one condition fails, and names the failing action among per-action reasons', async () => {
    await db.send(new PutCommand({ TableName, Item: { id: 'b1', n: 1 } }));
    await db.send(new PutCommand({ TableName, Item: { id: 'b3', n: 3 } }));
    const error = await cancellation(
      db.send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName, Item: { id: 'b2', n: 2 } } },
            {
              Update: {
                TableName,
                Key: { id: 'b1' },
                UpdateExpression: 'SET n = :n',
                ExpressionAttributeValues: { ':n': 10 },
              },
            },
            {
              Delete: {
                TableName,
                Key: { id: 'b3' },
                ConditionExpression: 'n = :wrong',
                ExpressionAttributeValues: { ':wrong': 99 },
                ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
              },
            },
            {
              ConditionCheck: {
                TableName,
                Key: { id: 'missing' },
                ConditionExpression: 'attribute_exists(id)',
              },
            },
          ],
        }),
      ),
    );
    expect(error.message).toBe(
      'Transaction cancelled, please refer cancellation reasons for specific reasons [None, None, ConditionalCheckFailed, ConditionalCheckFailed]',
    );
    expect(error.CancellationReasons?.map((r) => r.Code)).toEqual([
      'None',
      'None',
      'ConditionalCheckFailed',
      'ConditionalCheckFailed',
    ]);
    expect(error.CancellationReasons?.[2]).toMatchObject({
      Message: 'The conditional request failed',
      Item: { id: { S: 'b3' }, n: { N: '3' } },
    });
    expect(error.CancellationReasons?.[3]?.Item).toBeUndefined();
    expect(await get('b1')).toEqual({ id: 'b1', n: 1 });
    expect(await get('b2')).toBeUndefined();
    expect(await get('b3')).toEqual({ id: 'b3', n: 3 });
    expect(await get('missing')).toBeUndefined();
  });

  it('refuses two actions on one item and more than 100 actions, as DynamoDB does', async () => {
    const twice = db.send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName, Item: { id: 'c1', n: 1 } } },
          {
            Update: {
              TableName,
              Key: { id: 'c1' },
              UpdateExpression: 'SET n = :n',
              ExpressionAttributeValues: { ':n': 2 },
            },
          },
        ],
      }),
    );
    await expect(twice).rejects.toMatchObject({
      name: 'ValidationException',
      message: 'Transaction request cannot include multiple operations on one item',
    });
    const tooMany = db.send(
      new TransactWriteCommand({
        TransactItems: Array.from({ length: 101 }, (_, i) => ({ Put: { TableName, Item: { id: `d${i}` } } })),
      }),
    );
    await expect(tooMany).rejects.toMatchObject({ name: 'ValidationException' });
    expect(await get('c1')).toBeUndefined();
    expect(await get('d0')).toBeUndefined();
  });

  it('lets exactly one of competing conditional claims win; the others are cancelled as DynamoDB cancels them', async () => {
    const claims = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        db.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Put: {
                  TableName,
                  Item: { id: 'lock', owner: i },
                  ConditionExpression: 'attribute_not_exists(id)',
                },
              },
              { Put: { TableName, Item: { id: `claim-${i}` } } },
            ],
          }),
        ),
      ),
    );
    expect(claims.filter((c) => c.status === 'fulfilled')).toHaveLength(1);
    for (const claim of claims) {
      if (claim.status === 'fulfilled') continue;
      const codes = (claim.reason as TransactionCanceledException).CancellationReasons?.map((r) => r.Code);
      expect(['TransactionConflict', 'ConditionalCheckFailed']).toContain(codes?.[0]);
      expect(codes?.[1]).toBe('None');
    }
    const owner = (await get('lock'))?.owner;
    for (let i = 0; i < 10; i++)
      expect(await get(`claim-${i}`)).toEqual(i === owner ? { id: `claim-${i}` } : undefined);
  });

  it('cancels a transaction that meets a running one on an item, refuses a plain write to it, and makes reads wait', async () => {
    await db.send(new PutCommand({ TableName, Item: { id: 'held', n: 1 } }));
    local.injectFault('TransactWriteItems', 'hold');
    const running = db.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName,
              Key: { id: 'held' },
              UpdateExpression: 'SET n = :n',
              ExpressionAttributeValues: { ':n': 2 },
            },
          },
          { Put: { TableName, Item: { id: 'held-too' } } },
        ],
      }),
    );
    await local.whenHolding();
    const other = await cancellation(
      db.send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName, Item: { id: 'elsewhere' } } },
            {
              ConditionCheck: { TableName, Key: { id: 'held' }, ConditionExpression: 'attribute_exists(id)' },
            },
          ],
        }),
      ),
    );
    expect(other.CancellationReasons?.map((r) => r.Code)).toEqual(['None', 'TransactionConflict']);
    const plain = await db
      .send(new PutCommand({ TableName, Item: { id: 'held', n: 9 } }))
      .catch((e: unknown) => e);
    expect(plain).toBeInstanceOf(TransactionConflictException);
    // Items nobody holds are written as usual.
    await db.send(new PutCommand({ TableName, Item: { id: 'free' } }));
    let read: unknown;
    const reading = get('held').then((item) => {
      read = item;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(read).toBeUndefined();
    local.releaseHeld();
    await running;
    await reading;
    expect(read).toEqual({ id: 'held', n: 2 });
    expect(await get('elsewhere')).toBeUndefined();
  });

  it('holds a plain write on demand before it is carried out, holding no item meanwhile', async () => {
    await db.send(new PutCommand({ TableName, Item: { id: 'paused', n: 1 } }));
    local.injectFault('UpdateItem', 'hold', 1, (request) => request.includes('"paused"'));
    let done = false;
    const paused = db
      .send(
        new UpdateCommand({
          TableName,
          Key: { id: 'paused' },
          UpdateExpression: 'SET n = n + :one',
          ExpressionAttributeValues: { ':one': 1 },
        }),
      )
      .then(() => {
        done = true;
      });
    await local.whenHolding();
    // Others read and write the item meanwhile: the held call has not started.
    expect(await get('paused')).toEqual({ id: 'paused', n: 1 });
    await db.send(new PutCommand({ TableName, Item: { id: 'paused', n: 10 } }));
    expect(done).toBe(false);
    local.releaseHeld();
    await paused;
    expect(await get('paused')).toEqual({ id: 'paused', n: 11 });
  });

  it('answers a repeated ClientRequestToken as a success without writing again', async () => {
    await db.send(new PutCommand({ TableName, Item: { id: 'counter', n: 0 } }));
    const increment = (token: string, by = 1) =>
      db.send(
        new TransactWriteCommand({
          ClientRequestToken: token,
          TransactItems: [
            {
              Update: {
                TableName,
                Key: { id: 'counter' },
                UpdateExpression: 'ADD n :by',
                ExpressionAttributeValues: { ':by': by },
              },
            },
            { Put: { TableName, Item: { id: `by-${token}` } } },
          ],
        }),
      );
    await increment('token-1');
    await increment('token-1');
    expect((await get('counter'))?.n).toBe(1);
    const mismatch = await increment('token-1', 5).catch((e: unknown) => e);
    expect((mismatch as Error).name).toBe('IdempotentParameterMismatchException');
    await increment('token-2');
    expect((await get('counter'))?.n).toBe(2);
  });

  it('loses the response of a committed transaction on demand; the SDK retries with its token and nothing is written twice', async () => {
    await db.send(new PutCommand({ TableName, Item: { id: 'lossy', n: 0 } }));
    local.injectFault('TransactWriteItems', 'lose-response');
    await db.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName,
              Key: { id: 'lossy' },
              UpdateExpression: 'ADD n :one',
              ExpressionAttributeValues: { ':one': 1 },
            },
          },
          { Put: { TableName, Item: { id: 'lossy-mark' } } },
        ],
      }),
    );
    expect((await get('lossy'))?.n).toBe(1);
  });

  it('reports consumed capacity at twice the cost of plain writes', async () => {
    const result = await db.send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName, Item: { id: 'e1' } } },
          { Put: { TableName, Item: { id: 'e2' } } },
        ],
        ReturnConsumedCapacity: 'TOTAL',
      }),
    );
    expect(result.ConsumedCapacity).toEqual([expect.objectContaining({ TableName, CapacityUnits: 4 })]);
  });
});

describe('TransactGetItems', () => {
  it('reads several items consistently, in request order, empty for missing ones', async () => {
    await db.send(new PutCommand({ TableName, Item: { id: 'g1', v: 'one' } }));
    const { Responses } = await db.send(
      new TransactGetCommand({
        TransactItems: [
          { Get: { TableName, Key: { id: 'g1' } } },
          { Get: { TableName, Key: { id: 'nope' } } },
        ],
      }),
    );
    expect(Responses).toEqual([{ Item: { id: 'g1', v: 'one' } }, {}]);
  });
});

describe('TTL', () => {
  it('is described and enabled like DynamoDB, and expired items are swept (not future or non-numeric ones)', async () => {
    const client = new DynamoDBClient({
      endpoint: local.endpoint,
      region: 'us-east-1',
      credentials: EMBEDDED_CREDENTIALS,
    });
    expect(
      (await client.send(new DescribeTimeToLiveCommand({ TableName }))).TimeToLiveDescription
        ?.TimeToLiveStatus,
    ).toBe('DISABLED');
    await client.send(
      new UpdateTimeToLiveCommand({
        TableName,
        TimeToLiveSpecification: { Enabled: true, AttributeName: 'ttl' },
      }),
    );
    expect((await client.send(new DescribeTimeToLiveCommand({ TableName }))).TimeToLiveDescription).toEqual({
      TimeToLiveStatus: 'ENABLED',
      AttributeName: 'ttl',
    });
    const now = Math.floor(Date.now() / 1000);
    await db.send(new PutCommand({ TableName, Item: { id: 't-expired', ttl: now - 10 } }));
    await db.send(new PutCommand({ TableName, Item: { id: 't-future', ttl: now + 3600 } }));
    await db.send(new PutCommand({ TableName, Item: { id: 't-text', ttl: 'soon' } }));
    await db.send(new PutCommand({ TableName, Item: { id: 't-ancient', ttl: now - 6 * 365 * 24 * 3600 } }));
    expect(await local.sweepExpiredItems(now)).toBe(1);
    expect(await get('t-expired')).toBeUndefined();
    expect(await get('t-future')).toBeDefined();
    expect(await get('t-text')).toBeDefined();
    expect(await get('t-ancient')).toBeDefined();
  });
});

describe('index reads that lag the table', () => {
  const Lagging = 'lagging-index-test';
  const byGroup = async () =>
    (
      await db.send(
        new QueryCommand({
          TableName: Lagging,
          IndexName: 'byGroup',
          KeyConditionExpression: '#g = :g',
          ExpressionAttributeNames: { '#g': 'group' },
          ExpressionAttributeValues: { ':g': 'g' },
        }),
      )
    ).Items ?? [];

  it('answer items as they stood before the lag: earlier images, new ones not yet there', async () => {
    await createActiveTable(db, {
      TableName: Lagging,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [
        { AttributeName: 'id', AttributeType: 'S' },
        { AttributeName: 'group', AttributeType: 'S' },
        { AttributeName: 'rank', AttributeType: 'S' },
      ],
      KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
      GlobalSecondaryIndexes: [
        {
          IndexName: 'byGroup',
          KeySchema: [
            { AttributeName: 'group', KeyType: 'HASH' },
            { AttributeName: 'rank', KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: ['label'] },
        },
      ],
    });
    const item = (id: string, label: string) => ({ id, group: 'g', rank: id, label, secret: 's' });
    await db.send(new PutCommand({ TableName: Lagging, Item: item('a', 'first') }));
    await db.send(new PutCommand({ TableName: Lagging, Item: item('moved', 'here') }));
    try {
      local.setIndexLag(60_000);
      await db.send(
        new UpdateCommand({
          TableName: Lagging,
          Key: { id: 'a' },
          UpdateExpression: 'SET label = :l',
          ExpressionAttributeValues: { ':l': 'second' },
        }),
      );
      await db.send(new PutCommand({ TableName: Lagging, Item: item('b', 'new') }));
      await db.send(
        new TransactWriteCommand({
          TransactItems: [{ Put: { TableName: Lagging, Item: item('c', 'new') } }],
        }),
      );
      await db.send(new PutCommand({ TableName: Lagging, Item: { ...item('moved', 'here'), rank: 'z' } }));

      expect(await byGroup()).toEqual([{ id: 'a', group: 'g', rank: 'a', label: 'first' }]);
      expect((await db.send(new GetCommand({ TableName: Lagging, Key: { id: 'a' } }))).Item?.label).toBe(
        'second',
      );
    } finally {
      local.setIndexLag(0);
    }
    expect((await byGroup()).map((i) => `${i.id}:${i.label}`)).toEqual([
      'a:second',
      'b:new',
      'c:new',
      'moved:here',
    ]);
  });
});

describe('tables that take a while to create, as DynamoDB’s do', () => {
  it('refuse item calls while CREATING; the stack’s table is waited for before anything is served', async () => {
    const slowDir = mkdtempSync(join(tmpdir(), 'local-dynamodb-creating-'));
    const slow = await startLocalDynamoDb({ dataDir: slowDir, ttlSweepSeconds: 3600, createTableMs: 300 });
    try {
      const client = new DynamoDBClient({
        endpoint: slow.endpoint,
        region: 'us-east-1',
        credentials: EMBEDDED_CREDENTIALS,
      });
      const slowDb = DynamoDBDocumentClient.from(client);
      await client.send(new CreateTableCommand(byId('plain')));
      await expect(
        slowDb.send(new PutCommand({ TableName: 'plain', Item: { id: 'early' } })),
      ).rejects.toThrow(ResourceNotFoundException);

      await ensureTable(slow.endpoint, 'the-stack');
      await slowDb.send(new PutCommand({ TableName: 'the-stack', Item: { PK: 'first', SK: 'call' } }));
      const { Item } = await slowDb.send(
        new GetCommand({ TableName: 'the-stack', Key: { PK: 'first', SK: 'call' } }),
      );
      expect(Item).toEqual({ PK: 'first', SK: 'call' });
      client.destroy();
    } finally {
      await slow.close();
      rmSync(slowDir, { recursive: true, force: true });
    }
  });
});

describe('commits that take as long as DynamoDB’s', () => {
  it('cancel transactions that overlap them on an item as often as the cloud would (transactionMs)', async () => {
    const slowDir = mkdtempSync(join(tmpdir(), 'local-dynamodb-slow-'));
    const slow = await startLocalDynamoDb({ dataDir: slowDir, ttlSweepSeconds: 3600, transactionMs: 50 });
    try {
      const client = new DynamoDBClient({
        endpoint: slow.endpoint,
        region: 'us-east-1',
        credentials: EMBEDDED_CREDENTIALS,
      });
      await createActiveTable(client, byId(TableName));
      const slowDb = DynamoDBDocumentClient.from(client);
      const write = (i: number) =>
        slowDb.send(
          new TransactWriteCommand({
            TransactItems: [{ Put: { TableName, Item: { id: 'shared', writer: i } } }],
          }),
        );
      // The second starts 10 ms into the first's 50 ms commit: it meets the held item.
      const first = write(1);
      await new Promise((resolve) => setTimeout(resolve, 10));
      const codes = (await cancellation(write(2))).CancellationReasons?.map((r) => r.Code);
      expect(codes).toEqual(['TransactionConflict']);
      await first;
      slowDb.destroy();
    } finally {
      await slow.close();
      rmSync(slowDir, { recursive: true, force: true });
    }
  });
});
