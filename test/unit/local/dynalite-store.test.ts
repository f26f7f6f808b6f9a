/**
 * The embedded DynamoDB's store: what a restart finds (items and the index entries rebuilt from them),
 * a torn last journal line, a journal rewritten once it has outgrown its data, the import of a data
 * folder from before the journal (dynalite's LevelDB), and range reads against a plain sorted array.
 */
import {
  appendFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import dynalite from 'dynalite';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { callDynalite } from '#infra/local/dynalite-in-process.ts';
import { type DynaliteStore, openDynaliteStore } from '#infra/local/dynalite-store.ts';
import { openLocalDynamoDbStore } from '#infra/local/dynamodb-data-folder.ts';
import { createActiveTable, createTableInput } from '#infra/local/ensure-resources.ts';
import { EMBEDDED_CREDENTIALS } from '#shared/clients/aws-client-settings.ts';
import { createKeyTable } from '../../fixtures/dynalite-table.ts';

const TableName = 'store-test';
const folders: string[] = [];
const freshFolder = () => {
  const folder = mkdtempSync(join(tmpdir(), 'dynalite-store-'));
  folders.push(folder);
  return folder;
};
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

async function call(store: DynaliteStore, operation: string, input: Record<string, unknown>) {
  const { status, body } = await callDynalite(store, operation, input);
  if (status !== 200) throw new Error(`${operation}: ${JSON.stringify(body)}`);
  return body as Record<string, unknown> & { Items?: unknown[]; Item?: unknown; Count?: number };
}

/** A table like ours in miniature: a key, and one index on another attribute. */
const createTable = (store: DynaliteStore) =>
  createKeyTable(store, TableName, [{ name: 'names', hashKey: 'byName' }]);

const item = (i: number, name = `name ${i % 3}`) => ({
  PK: { S: 'P' },
  SK: { S: `item ${String(i).padStart(4, '0')}` },
  byName: { S: name },
  n: { N: String(i) },
});

const byName = (store: DynaliteStore, name: string) =>
  call(store, 'Query', {
    TableName,
    IndexName: 'names',
    KeyConditionExpression: 'byName = :n',
    ExpressionAttributeValues: { ':n': { S: name } },
  });

describe('the embedded DynamoDB store', () => {
  it('finds after a restart the items written, their index entries, and nothing deleted', async () => {
    const journalPath = join(freshFolder(), 'dynamodb.journal');
    const store = openDynaliteStore({ journalPath });
    await createTable(store);
    for (let i = 0; i < 30; i++) await call(store, 'PutItem', { TableName, Item: item(i) });
    await call(store, 'UpdateItem', {
      TableName,
      Key: { PK: { S: 'P' }, SK: { S: 'item 0001' } },
      UpdateExpression: 'SET byName = :n',
      ExpressionAttributeValues: { ':n': { S: 'renamed' } },
    });
    await call(store, 'DeleteItem', { TableName, Key: { PK: { S: 'P' }, SK: { S: 'item 0002' } } });
    const before = [
      await byName(store, 'name 1'),
      await byName(store, 'renamed'),
      await byName(store, 'name 2'),
    ];
    store.close();

    const reopened = openDynaliteStore({ journalPath });
    const after = [
      await byName(reopened, 'name 1'),
      await byName(reopened, 'renamed'),
      await byName(reopened, 'name 2'),
    ];
    expect(after.map((page) => page.Items)).toEqual(before.map((page) => page.Items));
    expect(after[1]?.Count).toBe(1);
    const gone = await call(reopened, 'GetItem', {
      TableName,
      Key: { PK: { S: 'P' }, SK: { S: 'item 0002' } },
    });
    expect(gone.Item).toBeUndefined();
    reopened.close();
  });

  it('drops a torn last line (a crash mid-write) and keeps every line before it', async () => {
    const journalPath = join(freshFolder(), 'dynamodb.journal');
    const store = openDynaliteStore({ journalPath });
    await createTable(store);
    for (let i = 0; i < 5; i++) await call(store, 'PutItem', { TableName, Item: item(i) });
    store.close();
    appendFileSync(journalPath, `p\titem-${TableName}\tabc/def/\t{"PK":{"S":"P"`);

    const reopened = openDynaliteStore({ journalPath });
    const all = await call(reopened, 'Scan', { TableName });
    expect(all.Count).toBe(5);
    // Written on after the cut, the journal is whole again.
    await call(reopened, 'PutItem', { TableName, Item: item(5) });
    reopened.close();
    expect((await call(openDynaliteStore({ journalPath }), 'Scan', { TableName })).Count).toBe(6);
  });

  it('drops the writes of a transaction the journal holds only part of, as DynamoDB never half-commits one', async () => {
    const journalPath = join(freshFolder(), 'dynamodb.journal');
    const store = openDynaliteStore({ journalPath });
    await createTable(store);
    for (let i = 0; i < 2; i++) await call(store, 'PutItem', { TableName, Item: item(i) });
    await store.atomically(async () => {
      for (let i = 2; i < 5; i++) await call(store, 'PutItem', { TableName, Item: item(i) });
    });
    store.close();
    const whole = readFileSync(journalPath);
    // Cut at a line's end inside the transaction, and within its last line: each a crash mid-write.
    const lastLine = whole.lastIndexOf(0x0a, whole.length - 2) + 1;
    for (const cut of [lastLine, whole.length - 5]) {
      writeFileSync(journalPath, whole.subarray(0, cut));
      const reopened = openDynaliteStore({ journalPath });
      expect((await call(reopened, 'Scan', { TableName })).Count).toBe(2);
      reopened.close();
    }
    // Written on after the cut, the journal is whole again.
    const reopened = openDynaliteStore({ journalPath });
    await reopened.atomically(() => call(reopened, 'PutItem', { TableName, Item: item(9) }));
    reopened.close();
    expect((await call(openDynaliteStore({ journalPath }), 'Scan', { TableName })).Count).toBe(3);
  });

  it('refuses to open a journal damaged in its middle, saying which file and what to do', async () => {
    const journalPath = join(freshFolder(), 'dynamodb.journal');
    const store = openDynaliteStore({ journalPath });
    await createTable(store);
    for (let i = 0; i < 3; i++) await call(store, 'PutItem', { TableName, Item: item(i) });
    store.close();
    const lines = readFileSync(journalPath, 'utf8').split('\n');
    for (const damaged of ['garbage', lines[2]?.replace(/\{.*$/, '{"PK":')]) {
      writeFileSync(journalPath, [...lines.slice(0, 2), damaged, ...lines.slice(3)].join('\n'));
      expect(() => openDynaliteStore({ journalPath })).toThrow(
        new RegExp(`cannot read its journal ${journalPath}.*move the data folder`),
      );
    }
    // A transaction's group whose count was damaged, with more written after it: not a crash's torn end.
    writeFileSync(journalPath, lines.join('\n'));
    const again = openDynaliteStore({ journalPath });
    await again.atomically(async () => {
      for (let i = 5; i < 7; i++) await call(again, 'PutItem', { TableName, Item: item(i) });
    });
    await call(again, 'PutItem', { TableName, Item: item(7) });
    again.close();
    const grouped = readFileSync(journalPath, 'utf8');
    for (const count of ['9', 'x', '1']) {
      writeFileSync(journalPath, grouped.replace('g\t2\n', `g\t${count}\n`));
      expect(() => openDynaliteStore({ journalPath })).toThrow(/cannot read its journal.*group/);
    }
  });

  it('writes a plain write out when it is answered, while a transaction beside it waits to write its own', async () => {
    const journalPath = join(freshFolder(), 'dynamodb.journal');
    const store = openDynaliteStore({ journalPath });
    await createTable(store);
    let release: () => void = () => undefined;
    const transaction = store.atomically(async () => {
      await call(store, 'PutItem', { TableName, Item: item(1, 'in the transaction') });
      await new Promise<void>((resolve) => {
        release = resolve;
      });
    });
    await call(store, 'PutItem', { TableName, Item: item(2, 'plain') });
    const meanwhile = readFileSync(journalPath, 'utf8');
    release();
    await transaction;
    expect(meanwhile).toContain('plain');
    expect(meanwhile).not.toContain('in the transaction');
    expect(readFileSync(journalPath, 'utf8')).toContain('in the transaction');
    store.close();
  });

  it('rewrites a journal that has grown well past its data, keeping the data', async () => {
    const journalPath = join(freshFolder(), 'dynamodb.journal');
    const store = openDynaliteStore({ journalPath });
    await createTable(store);
    for (let round = 0; round < 400; round++) {
      for (let i = 0; i < 10; i++)
        await call(store, 'PutItem', { TableName, Item: item(i, `round ${round}`) });
    }
    store.close();
    const grown = statSync(journalPath).size;

    const reopened = openDynaliteStore({ journalPath });
    expect(statSync(journalPath).size).toBeLessThan(grown / 50);
    expect((await byName(reopened, 'round 399')).Count).toBe(10);
    expect((await byName(reopened, 'round 398')).Count).toBe(0);
    reopened.close();
  });

  it('imports a data folder kept by dynalite on LevelDB, and moves it aside', async () => {
    const dataDir = freshFolder();
    const server = dynalite({ path: join(dataDir, 'dynamodb'), createTableMs: 0 });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    const endpoint = `http://127.0.0.1:${port}`;
    const client = DynamoDBDocumentClient.from(
      new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: EMBEDDED_CREDENTIALS }),
    );
    await createActiveTable(client, createTableInput(TableName));
    for (let i = 0; i < 20; i++) {
      await client.send(
        new PutCommand({ TableName, Item: { PK: `NODE#${i}`, SK: 'DRAFT', lpP: 'P#folder', lsI: `${i}` } }),
      );
    }
    client.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));

    const store = await openLocalDynamoDbStore(dataDir);
    const listed = await call(store, 'Query', {
      TableName,
      IndexName: 'parent-nodeId',
      KeyConditionExpression: 'lpP = :p',
      ExpressionAttributeValues: { ':p': { S: 'P#folder' } },
    });
    expect(listed.Count).toBe(20);
    store.close();
    expect(existsSync(join(dataDir, 'dynamodb'))).toBe(false);
    expect(existsSync(join(dataDir, 'dynamodb.imported'))).toBe(true);
    // The next start reads the journal, and the import is not repeated.
    const again = await openLocalDynamoDbStore(dataDir);
    expect((await call(again, 'Scan', { TableName })).Count).toBe(20);
    again.close();
  });

  it('counts the same entries, and ends a page at the same key, when their sizes are known from before', async () => {
    const store = openDynaliteStore({});
    await createTable(store);
    for (let i = 0; i < 40; i++) await call(store, 'PutItem', { TableName, Item: item(i, 'same') });
    const count = (extra: Record<string, unknown> = {}) =>
      call(store, 'Query', {
        TableName,
        IndexName: 'names',
        KeyConditionExpression: 'byName = :n',
        ExpressionAttributeValues: {
          ':n': { S: 'same' },
          ...((extra.ExpressionAttributeValues as object) ?? {}),
        },
        Select: 'COUNT',
        Limit: 25,
        ...Object.fromEntries(Object.entries(extra).filter(([k]) => k !== 'ExpressionAttributeValues')),
      });
    const first = await count();
    const again = await count();
    expect(first).toMatchObject({ Count: 25, ScannedCount: 25 });
    expect(again).toEqual(first);
    expect(first.LastEvaluatedKey).toEqual({ PK: { S: 'P' }, SK: { S: 'item 0024' }, byName: { S: 'same' } });
    const filtered = await count({
      FilterExpression: 'n < :ten',
      ExpressionAttributeValues: { ':ten': { N: '10' } },
    });
    expect(filtered).toMatchObject({ Count: 10, ScannedCount: 25 });
    // A changed entry is sized again.
    await call(store, 'PutItem', { TableName, Item: item(3, 'other') });
    expect((await count()).LastEvaluatedKey).toEqual({
      PK: { S: 'P' },
      SK: { S: 'item 0025' },
      byName: { S: 'same' },
    });
  });

  it('reads ranges as a sorted array would: bounds, order and limit', () => {
    const store = openDynaliteStore({});
    const db = store.getItemDb('ranges');
    const key = fc.stringMatching(/^[a-d]{0,3}$/);
    fc.assert(
      fc.property(
        fc.uniqueArray(key),
        fc.record(
          {
            low: fc.option(fc.record({ key, inclusive: fc.boolean() }), { nil: undefined }),
            high: fc.option(fc.record({ key, inclusive: fc.boolean() }), { nil: undefined }),
            reverse: fc.boolean(),
            limit: fc.option(fc.integer({ min: -1, max: 6 }), { nil: undefined }),
          },
          { requiredKeys: [] },
        ),
        (keys, { low, high, reverse, limit }) => {
          for (const existing of [...db.entries.keys()]) db.remove(existing);
          for (const k of keys) db.set(k, { k: { S: k } });
          const options = {
            ...(low ? { [low.inclusive ? 'gte' : 'gt']: low.key } : {}),
            ...(high ? { [high.inclusive ? 'lte' : 'lt']: high.key } : {}),
            ...(reverse ? { reverse } : {}),
            ...(limit !== undefined ? { limit } : {}),
          };
          let expected = [...keys]
            .sort()
            .filter((k) => !low || (low.inclusive ? k >= low.key : k > low.key))
            .filter((k) => !high || (high.inclusive ? k <= high.key : k < high.key));
          if (reverse) expected.reverse();
          if (limit !== undefined && limit >= 0) expected = expected.slice(0, limit);
          expect([...db.range(options)].map(([k]) => k)).toEqual(expected);
        },
      ),
    );
  });
});
