/**
 * GetItem and BatchGetItem answered from the store's text (dynalite-store-reads.ts) against dynalite's
 * own answers to the same requests on the same store: the same items, the same capacity, the same keys
 * left out; and every request dynalite might refuse or answer otherwise is left to it.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { callDynalite } from '#infra/local/dynalite-in-process.ts';
import { type DynaliteStore, openDynaliteStore } from '#infra/local/dynalite-store.ts';
import { batchGetFromStore, getItemFromStore } from '#infra/local/dynalite-store-reads.ts';
import { createKeyTable } from '../../fixtures/dynalite-table.ts';

const TableName = 'reads-test';
type Json = Record<string, unknown>;

let store: DynaliteStore;

async function dynalite(operation: string, input: Json): Promise<Json> {
  const { status, body } = await callDynalite(store, operation, input);
  if (status !== 200) throw new Error(`${operation}: ${JSON.stringify(body)}`);
  // As the wire has it: undefined fields left out.
  return JSON.parse(JSON.stringify(body)) as Json;
}

/** Items from a few bytes to past two read units (4 KB each), so rounding shows. */
const SIZES = [10, 4000, 4200, 9000, 20];
const key = (i: number) => ({ PK: { S: 'P' }, SK: { S: `item ${i}` } });
const put = (i: number, bytes: number) =>
  dynalite('PutItem', {
    TableName,
    Item: { ...key(i), body: { S: 'x'.repeat(bytes) }, n: { N: String(i) } },
  });

beforeAll(async () => {
  store = openDynaliteStore({});
  await createKeyTable(store, TableName);
  for (const [i, bytes] of SIZES.entries()) await put(i, bytes);
});

/** A batch's items in one order (both answers come in a random one). */
const sorted = (answer: Json) => {
  const responses = answer.Responses as Record<string, Json[]>;
  for (const items of Object.values(responses)) {
    items.sort((a, b) => String((a.SK as Json).S).localeCompare(String((b.SK as Json).S)));
  }
  return answer;
};

const fromStore = (text: string | undefined) => {
  expect(text, 'answered from the store').toBeDefined();
  return JSON.parse(text as string) as Json;
};

const modes = fc.constantFrom(undefined, 'TOTAL', 'INDEXES', 'NONE');
const consistency = fc.constantFrom(undefined, true, false);
// Keys 0–4 are stored, 5–7 are not.
const keyNumber = fc.integer({ min: 0, max: 7 });

describe('reads answered from the store', () => {
  it('answers a GetItem as dynalite does, found or not, for every capacity mode and consistency', async () => {
    await fc.assert(
      fc.asyncProperty(keyNumber, modes, consistency, async (i, mode, consistent) => {
        const input: Json = {
          TableName,
          Key: key(i),
          ...(mode ? { ReturnConsumedCapacity: mode } : {}),
          ...(consistent === undefined ? {} : { ConsistentRead: consistent }),
        };
        expect(fromStore(getItemFromStore(store, input))).toEqual(await dynalite('GetItem', input));
      }),
    );
  });

  it('answers a BatchGetItem as dynalite does: the same items, and capacity summed per table', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(keyNumber, { minLength: 1, maxLength: 8 }),
        modes,
        consistency,
        async (numbers, mode, consistent) => {
          const input: Json = {
            RequestItems: {
              [TableName]: {
                Keys: numbers.map(key),
                ...(consistent === undefined ? {} : { ConsistentRead: consistent }),
              },
            },
            ...(mode ? { ReturnConsumedCapacity: mode } : {}),
          };
          const answer = sorted(fromStore(batchGetFromStore(store, input)));
          expect(answer).toEqual(sorted(await dynalite('BatchGetItem', input)));
        },
      ),
    );
  });

  it('answers a BatchGetItem projecting top-level attributes as dynalite does, billed on whole items', async () => {
    // Stored items have PK, SK, body and n; `gone` is on none of them.
    const attributes = fc.uniqueArray(fc.constantFrom('PK', 'SK', 'body', 'n', 'gone'), {
      minLength: 1,
      maxLength: 5,
    });
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(keyNumber, { minLength: 1, maxLength: 8 }),
        attributes,
        fc.constantFrom('', ' '),
        modes,
        consistency,
        async (numbers, projected, space, mode, consistent) => {
          const placeholders = projected.map((_, i) => `#p${i}`);
          const input: Json = {
            RequestItems: {
              [TableName]: {
                Keys: numbers.map(key),
                ProjectionExpression: placeholders.join(`${space},${space}`),
                ExpressionAttributeNames: Object.fromEntries(placeholders.map((p, i) => [p, projected[i]])),
                ...(consistent === undefined ? {} : { ConsistentRead: consistent }),
              },
            },
            ...(mode ? { ReturnConsumedCapacity: mode } : {}),
          };
          const answer = fromStore(batchGetFromStore(store, input));
          const expected = await dynalite('BatchGetItem', input);
          // Projected items may lack the sort key: compare them in a canonical order.
          const canonical = (a: Json) => {
            for (const items of Object.values(a.Responses as Record<string, Json[]>))
              items.sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y)));
            return a;
          };
          expect(canonical(answer)).toEqual(canonical(expected));
        },
      ),
    );
  });

  it('bills an item on its size after a write changed it, not on the size it had', async () => {
    const input = { TableName, Key: key(4), ReturnConsumedCapacity: 'TOTAL', ConsistentRead: true };
    const before = fromStore(getItemFromStore(store, input));
    await put(4, 12_000);
    const after = fromStore(getItemFromStore(store, input));
    expect(after).toEqual(await dynalite('GetItem', input));
    expect((after.ConsumedCapacity as Json).CapacityUnits).toBe(3);
    expect((before.ConsumedCapacity as Json).CapacityUnits).toBe(1);
    await put(4, SIZES[4] as number);
  });

  it('leaves to dynalite every request it might refuse or answer otherwise', () => {
    const batch = (keys: unknown[], extra: Json = {}) => ({
      RequestItems: { [TableName]: { Keys: keys, ...extra } },
    });
    const ours = [
      // Not whole items, or fields it does not know.
      { TableName, Key: key(0), ProjectionExpression: 'n' },
      { TableName, Key: key(0), AttributesToGet: ['n'] },
      { TableName, Key: key(0), Unknown: true },
      // Keys dynalite refuses: a missing or extra part, the wrong type, empty, too long.
      { TableName, Key: { PK: { S: 'P' } } },
      { TableName, Key: { ...key(0), other: { S: 'x' } } },
      { TableName, Key: { PK: { S: 'P' }, SK: { N: '1' } } },
      { TableName, Key: { PK: { S: 'P' }, SK: { S: '' } } },
      { TableName, Key: { PK: { S: 'P' }, SK: { S: 'x'.repeat(1025) } } },
      { TableName, Key: { PK: { S: 'P', N: '1' }, SK: { S: 'x' } } },
      // Tables it does not have, or names DynamoDB refuses; odd capacity modes and consistency.
      { TableName: 'missing-table', Key: key(0) },
      { TableName: 'no', Key: key(0) },
      { TableName, Key: key(0), ReturnConsumedCapacity: 'ALL' },
      { TableName, Key: key(0), ConsistentRead: 'yes' },
    ];
    for (const input of ours)
      expect(getItemFromStore(store, input as Json), JSON.stringify(input)).toBeUndefined();

    const batches = [
      batch([key(0), key(0)]),
      batch(Array.from({ length: 101 }, (_, i) => key(i))),
      batch([]),
      batch([key(0)], { ProjectionExpression: 'n' }),
      // Projections it leaves to dynalite: paths, a placeholder unused, missing or naming an attribute twice.
      batch([key(0)], { ProjectionExpression: '#a.#b', ExpressionAttributeNames: { '#a': 'n', '#b': 'x' } }),
      batch([key(0)], { ProjectionExpression: '#a[0]', ExpressionAttributeNames: { '#a': 'n' } }),
      batch([key(0)], { ProjectionExpression: '#a', ExpressionAttributeNames: { '#a': 'n', '#b': 'body' } }),
      batch([key(0)], { ProjectionExpression: '#a, #b', ExpressionAttributeNames: { '#a': 'n' } }),
      batch([key(0)], { ProjectionExpression: '#a, #b', ExpressionAttributeNames: { '#a': 'n', '#b': 'n' } }),
      batch([key(0)], { ProjectionExpression: '#a, #a', ExpressionAttributeNames: { '#a': 'n' } }),
      batch([key(0)], { ProjectionExpression: '#a', ExpressionAttributeNames: { '#a': '' } }),
      batch([key(0)], { ExpressionAttributeNames: { '#a': 'n' } }),
      batch([key(0)], { ProjectionExpression: 'n, #a', ExpressionAttributeNames: { '#a': 'body' } }),
      batch([key(0)], { ConsistentRead: 'yes' }),
      batch([{ PK: { S: 'P' }, SK: { S: '' } }]),
      { RequestItems: {} },
      { RequestItems: { [TableName]: { Keys: [key(0)] } }, ReturnConsumedCapacity: 'ALL' },
      { RequestItems: { [TableName]: { Keys: [key(0)] } }, ReturnItemCollectionMetrics: 'SIZE' },
      { RequestItems: { 'missing-table': { Keys: [key(0)] } } },
    ];
    for (const input of batches)
      expect(batchGetFromStore(store, input as Json), JSON.stringify(input).slice(0, 200)).toBeUndefined();
  });

  it('leaves to dynalite a batch of over 1 MB of items, where it may leave keys unprocessed', async () => {
    const big = Array.from({ length: 4 }, (_, i) => 100 + i);
    for (const i of big) await put(i, 300_000);
    expect(
      batchGetFromStore(store, { RequestItems: { [TableName]: { Keys: big.map(key) } } }),
    ).toBeUndefined();
    expect(
      batchGetFromStore(store, { RequestItems: { [TableName]: { Keys: big.slice(0, 3).map(key) } } }),
    ).toBeDefined();
  });
});
