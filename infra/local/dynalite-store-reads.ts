/**
 * GetItem and BatchGetItem answered from the store's JSON text: the stored items are written into the
 * answer as they are kept, where dynalite's actions decode each one, check and size it again, and the
 * gateway encodes it back (for a list page's 50 objects that round cost more than everything else the
 * call does).
 *
 * Only a request dynalite would surely accept takes this way: whole items (a batch may also project
 * top-level attributes, `#a, #b` with every name given used once), string keys of the table's schema,
 * not empty and within DynamoDB's key sizes; for a batch, no key twice, at most 100 keys, and an answer
 * under the 1 MB that would leave keys unprocessed. Anything else goes to dynalite, which answers it, or
 * its error, as before. What this answers is what dynalite answers: a batch's items in a random order
 * (DynamoDB promises none), every key a table's `Responses` lacks not found, and the capacity of each
 * get (a missing item costs one unit, halved for an eventually consistent read, the whole item billed
 * when projected), summed per table. The gateway's own reads by key (peekItem) take the same keys.
 */
import { createRequire } from 'node:module';
import type { DynaliteStore, TableDescription } from './dynalite-store.ts';
import { pickMembers } from './json-members.ts';

const require = createRequire(import.meta.url);
const db = require('dynalite/db') as {
  createKey(item: Record<string, unknown>, table: TableDescription): string;
  itemSize(
    item: Record<string, unknown>,
    compress?: boolean,
    addMetaSize?: boolean,
    rangeKey?: string,
  ): number;
};

const MAX_KEYS = 100;
const MAX_HASH_KEY_BYTES = 2048;
const MAX_RANGE_KEY_BYTES = 1024;
const TABLE_NAME = /^[a-zA-Z0-9_.-]{3,255}$/;
const GET_FIELDS = new Set(['TableName', 'Key', 'ConsistentRead', 'ReturnConsumedCapacity']);
const BATCH_FIELDS = new Set(['RequestItems', 'ReturnConsumedCapacity']);
const TABLE_FIELDS = new Set(['Keys', 'ConsistentRead', 'ProjectionExpression', 'ExpressionAttributeNames']);
/** A projection of top-level attributes, each named by a placeholder: `#a, #b`. */
const PLACEHOLDER_LIST = /^\s*#[A-Za-z0-9_]+\s*(?:,\s*#[A-Za-z0-9_]+\s*)*$/;
const CAPACITY_MODES = new Set(['TOTAL', 'INDEXES', 'NONE']);

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The store key of `key` if it is a well-formed string key of `table`; undefined otherwise. */
function storeKey(table: TableDescription, key: unknown): string | undefined {
  if (!isObject(key) || Object.keys(key).length !== table.KeySchema.length) return undefined;
  for (const [position, { AttributeName }] of table.KeySchema.entries()) {
    const type = table.AttributeDefinitions.find((d) => d.AttributeName === AttributeName)?.AttributeType;
    const value = key[AttributeName];
    if (type !== 'S' || !isObject(value) || Object.keys(value).length !== 1) return undefined;
    const text = value.S;
    const limit = position === 0 ? MAX_HASH_KEY_BYTES : MAX_RANGE_KEY_BYTES;
    if (typeof text !== 'string' || text === '' || Buffer.byteLength(text) > limit) return undefined;
  }
  return db.createKey(key, table);
}

/**
 * The item a key names, read straight from the store (what a consistent GetItem answers), for the
 * gateway's own reads of the items a request names: a transaction's snapshots, the images the stream
 * reports. Undefined when the key is not one this module takes (the caller then asks with a checked
 * GetItem, which answers the item or the error).
 */
export function peekItem(
  store: DynaliteStore,
  tableName: string,
  key: unknown,
): { item: Json | undefined } | undefined {
  const table = store.activeTable(tableName);
  const stored = table && storeKey(table, key);
  if (stored === undefined) return undefined;
  return { item: store.getItemDb(tableName).value(stored) };
}

/** The size dynalite bills a stored item on (kept with the item until it changes). */
function billedSize(store: DynaliteStore, table: TableDescription, key: string, text: string): number {
  const items = store.getItemDb(table.TableName);
  const known = items.knownSizes(key);
  if (known) return known.size;
  const item = JSON.parse(text) as Json;
  const sizes = {
    size: db.itemSize(item),
    pageSize: db.itemSize(item, true, true, table.KeySchema[1]?.AttributeName),
  };
  items.keepSizes(key, sizes);
  return sizes.size;
}

/** One get's capacity, as dynalite's capacityUnits counts it. */
const readUnits = (size: number | undefined, consistent: boolean | undefined) =>
  (size === undefined ? 1 : Math.ceil(size / 1024 / 4)) / (consistent ? 1 : 2);

const hasOnly = (value: Json, fields: Set<string>) => Object.keys(value).every((field) => fields.has(field));

/** ReturnConsumedCapacity, if it is one dynalite takes. */
function capacityMode(input: Json): { mode: string | undefined } | undefined {
  const mode = input.ReturnConsumedCapacity;
  if (mode === undefined) return { mode };
  return typeof mode === 'string' && CAPACITY_MODES.has(mode) ? { mode } : undefined;
}

const consumed = (mode: string | undefined, tableName: string, units: number) =>
  mode === 'TOTAL' || mode === 'INDEXES'
    ? {
        CapacityUnits: units,
        TableName: tableName,
        ...(mode === 'INDEXES' ? { Table: { CapacityUnits: units } } : {}),
      }
    : undefined;

/** The answer's JSON text, or undefined when the request is one for dynalite to answer. */
export function getItemFromStore(store: DynaliteStore, input: Json): string | undefined {
  const capacity = capacityMode(input);
  const { TableName: tableName, ConsistentRead: consistent } = input;
  if (!capacity || !hasOnly(input, GET_FIELDS) || typeof tableName !== 'string') return undefined;
  if (consistent !== undefined && typeof consistent !== 'boolean') return undefined;
  const table = TABLE_NAME.test(tableName) ? store.activeTable(tableName) : undefined;
  const key = table && storeKey(table, input.Key);
  if (!table || key === undefined) return undefined;
  const text = store.getItemDb(tableName).entries.get(key);
  const size = text === undefined ? undefined : billedSize(store, table, key, text);
  const units = consumed(capacity.mode, tableName, readUnits(size, consistent));
  const parts = [
    ...(text === undefined ? [] : [`"Item":${text}`]),
    ...(units ? [`"ConsumedCapacity":${JSON.stringify(units)}`] : []),
  ];
  return `{${parts.join(',')}}`;
}

function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i >= 1; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
  return items;
}

/**
 * The attributes a table's request projects: null for whole items; undefined for a projection this
 * module leaves to dynalite (paths, names without placeholders, a placeholder given but unused or
 * missing, an attribute named twice: dynalite answers those, or refuses them as DynamoDB does).
 */
function projectedAttributes(request: Json): string[] | null | undefined {
  const { ProjectionExpression: expression, ExpressionAttributeNames: names } = request;
  if (expression === undefined) return names === undefined ? null : undefined;
  if (typeof expression !== 'string' || !PLACEHOLDER_LIST.test(expression) || !isObject(names))
    return undefined;
  const placeholders = expression.split(',').map((part) => part.trim());
  if (new Set(placeholders).size !== placeholders.length) return undefined;
  if (Object.keys(names).length !== placeholders.length) return undefined;
  const attributes = placeholders.map((placeholder) => names[placeholder]);
  if (attributes.some((name) => typeof name !== 'string' || name === '')) return undefined;
  return new Set(attributes).size === attributes.length ? (attributes as string[]) : undefined;
}

/** The batch's answer as JSON text, or undefined when the request is one for dynalite to answer. */
export function batchGetFromStore(store: DynaliteStore, input: Json): string | undefined {
  const capacity = capacityMode(input);
  if (!capacity || !hasOnly(input, BATCH_FIELDS)) return undefined;
  const requests = input.RequestItems;
  if (!isObject(requests) || Object.keys(requests).length === 0) return undefined;

  const answers: { tableName: string; texts: string[]; units: number }[] = [];
  const seen = new Set<string>();
  let bytes = 0;
  for (const [tableName, request] of Object.entries(requests)) {
    const table = TABLE_NAME.test(tableName) ? store.activeTable(tableName) : undefined;
    if (!table || !isObject(request) || !hasOnly(request, TABLE_FIELDS)) return undefined;
    const { Keys: keys, ConsistentRead: consistent } = request;
    if (consistent !== undefined && typeof consistent !== 'boolean') return undefined;
    const attributes = projectedAttributes(request);
    if (attributes === undefined) return undefined;
    if (!Array.isArray(keys) || keys.length === 0) return undefined;
    const items = store.getItemDb(tableName);
    const texts: string[] = [];
    let units = 0;
    for (const key of keys) {
      const stored = storeKey(table, key);
      const once = `${tableName}\u0000${stored}`;
      if (stored === undefined || seen.has(once)) return undefined;
      seen.add(once);
      if (seen.size > MAX_KEYS) return undefined;
      const text = items.entries.get(stored);
      const size = text === undefined ? undefined : billedSize(store, table, stored, text);
      // Billed on the whole item, projected or not, as DynamoDB does.
      if (text !== undefined) texts.push(attributes ? pickMembers(text, attributes) : text);
      bytes += size ?? 0;
      units += readUnits(size, consistent);
    }
    answers.push({ tableName, texts, units });
  }
  // dynalite leaves keys unprocessed past 1 MB of items (plus one item's maximum): let it answer those.
  if (bytes > 1024 * 1024) return undefined;

  const responses = answers.map(
    ({ tableName, texts }) => `${JSON.stringify(tableName)}:[${shuffle(texts).join(',')}]`,
  );
  const units = answers.flatMap(({ tableName, units }) => consumed(capacity.mode, tableName, units) ?? []);
  const capacityPart = units.length > 0 ? `,"ConsumedCapacity":${JSON.stringify(units)}` : '';
  return `{"Responses":{${responses.join(',')}},"UnprocessedKeys":{}${capacityPart}}`;
}
