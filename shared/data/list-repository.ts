/**
 * Reads of list pages: index entries in key order from one or more list partitions, merged into one
 * ordered stream, then the objects of the page by key. Every query stops after the entries the page
 * needs, so a page costs the same in a library of a thousand objects as in one of a million.
 */
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { dynamoDb } from '#shared/clients/dynamodb.ts';
import { config } from '#shared/config/index.ts';
import type { ListedNode } from '#shared/domain/list-element.ts';
import type { NodeStatus } from '#shared/domain/node.ts';
import { compareKeys } from './key-order.ts';
import type { NodeCopy } from './keys.ts';
import { type ListScope, type ListSortKey, listIndex } from './list-indexes.ts';
import { findListedNodes } from './node-repository.ts';

/** One partition of a list index to read. */
export interface ListPartition {
  scope: ListScope;
  partition: string;
  /** Only objects in the subtrees of these nodes (the folders a caller may read), the nodes included. */
  within?: readonly string[];
}

/** Conditions checked on the index entries, before any object is read. */
export interface EntryFilter {
  nodeTypes?: readonly string[];
  nodeStatus?: NodeStatus;
  /** Lower-case text the name must contain. */
  nameContains?: string;
  /** Only objects with a published version. */
  publishedOnly?: boolean;
  /** Only objects that need attention: not published as they are, or without a description. */
  needsAttention?: boolean;
}

export interface EntryRange {
  sortKey: ListSortKey;
  order: 'ASC' | 'DESC';
  /** Continue after this sort value (exclusive), in the order of the list. */
  after?: string;
  /** Only sort values at or above this one (for modificationDate: modified since). */
  atLeast?: string;
}

/** One index entry: enough to order, filter and fetch the object, and its parent beside it. */
export interface ListEntry {
  nodeId: string;
  sortValue: string;
  /** The object's parent, from the entry's lineage (null for an environment); objects never move. */
  parentId: string | null;
}

/** The parent in a lineage (the ancestors, then the node itself). */
const parentInLineage = (lineage: unknown): string | null =>
  Array.isArray(lineage) && lineage.length >= 2 ? String(lineage[lineage.length - 2]) : null;

function filterExpression(partition: ListPartition, filter: EntryFilter) {
  const clauses: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const oneOf = (attribute: string, prefix: string, list: readonly string[]) => {
    names[`#${attribute}`] = attribute;
    list.forEach((value, i) => {
      values[`:${prefix}${i}`] = value;
    });
    return `#${attribute} IN (${list.map((_, i) => `:${prefix}${i}`).join(', ')})`;
  };
  if (filter.nodeTypes) clauses.push(oneOf('nodeType', 't', filter.nodeTypes));
  if (filter.nodeStatus) clauses.push(oneOf('nodeStatus', 's', [filter.nodeStatus]));
  if (filter.nameContains !== undefined) {
    names['#searchName'] = 'searchName';
    values[':name'] = filter.nameContains;
    clauses.push('contains(#searchName, :name)');
  }
  if (filter.publishedOnly) {
    names['#published'] = 'publishedNodeVersionId';
    values[':string'] = 'S';
    clauses.push('attribute_type(#published, :string)');
  }
  if (filter.needsAttention) {
    names['#status'] = 'nodeStatus';
    names['#described'] = 'hasDescription';
    values[':inProgress'] = 'IN_PROGRESS';
    values[':false'] = false;
    clauses.push('(#status = :inProgress OR #described = :false)');
  }
  if (partition.within) {
    names['#lineage'] = 'lineage';
    const within = partition.within.map((id, i) => {
      values[`:w${i}`] = id;
      return `contains(#lineage, :w${i})`;
    });
    clauses.push(`(${within.join(' OR ')})`);
  }
  return { clauses, names, values };
}

function keyCondition(range: EntryRange) {
  const { after, atLeast, order } = range;
  const values: Record<string, string> = {};
  let condition = '#pk = :pk';
  if (order === 'ASC') {
    const lower =
      after !== undefined && (atLeast === undefined || compareKeys(after, atLeast) >= 0) ? after : atLeast;
    if (lower !== undefined) {
      values[':lower'] = lower;
      condition += lower === after ? ' AND #sk > :lower' : ' AND #sk >= :lower';
    }
  } else if (after !== undefined && atLeast !== undefined) {
    // BETWEEN includes `after` itself; the stream drops it.
    Object.assign(values, { ':lower': atLeast, ':upper': after });
    condition += ' AND #sk BETWEEN :lower AND :upper';
  } else if (after !== undefined) {
    values[':upper'] = after;
    condition += ' AND #sk < :upper';
  } else if (atLeast !== undefined) {
    values[':lower'] = atLeast;
    condition += ' AND #sk >= :lower';
  }
  return { condition, values };
}

/** The entries of one partition in list order, read in chunks of `chunk` evaluated entries. */
async function* partitionEntries(
  partition: ListPartition,
  filter: EntryFilter,
  range: EntryRange,
  chunk: number,
): AsyncGenerator<ListEntry> {
  const index = listIndex(partition.scope, range.sortKey);
  // Walking down past the lower bound: nothing is left (and DynamoDB refuses an inverted BETWEEN).
  if (range.order === 'DESC' && range.after !== undefined && range.atLeast !== undefined) {
    if (compareKeys(range.after, range.atLeast) < 0) return;
  }
  const key = keyCondition(range);
  const filters = filterExpression(partition, filter);
  const input: QueryCommandInput = {
    TableName: config().tableName,
    IndexName: index.indexName,
    KeyConditionExpression: key.condition,
    ...(filters.clauses.length > 0 ? { FilterExpression: filters.clauses.join(' AND ') } : {}),
    // What an entry is read for: DynamoDB charges the whole entry either way, but answers (and the SDK
    // parses) only these; a page of 51 entries took 0.83 times as long on the embedded stack.
    ProjectionExpression: 'PK, #sk, lineage',
    ExpressionAttributeNames: { '#pk': index.partitionKey, '#sk': index.sortKey, ...filters.names },
    ExpressionAttributeValues: { ':pk': partition.partition, ...key.values, ...filters.values },
    ScanIndexForward: range.order === 'ASC',
    Limit: chunk,
  };
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await dynamoDb().send(
      new QueryCommand({ ...input, ...(startKey ? { ExclusiveStartKey: startKey } : {}) }),
    );
    for (const item of page.Items ?? []) {
      const sortValue = String(item[index.sortKey]);
      if (sortValue === range.after) continue;
      yield {
        nodeId: String(item.PK).slice('NODE#'.length),
        sortValue,
        parentId: parentInLineage(item.lineage),
      };
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);
}

/** Whether a page by number can skip the entries before it by counting them (see skipEntries). */
export const skippableByCount = (partitions: readonly ListPartition[], filter: EntryFilter) =>
  partitions.length === 1 && filterExpression(partitions[0] as ListPartition, filter).clauses.length === 0;

/**
 * Skips the first `count` entries of one partition that no filter narrows, without reading them back:
 * COUNT queries (DynamoDB evaluates and charges the same entries, but answers only how many, so a deep
 * page by number does not carry the entries before it over the wire). Answers how many were skipped,
 * the sort value the page continues after, and whether the partition ended first (the page is empty).
 */
export async function skipEntries(
  partition: ListPartition,
  range: EntryRange,
  count: number,
): Promise<{ skipped: number; after?: string; exhausted: boolean }> {
  const index = listIndex(partition.scope, range.sortKey);
  const key = keyCondition(range);
  let skipped = 0;
  let after = range.after;
  let startKey: Record<string, unknown> | undefined;
  while (skipped < count) {
    const page = await dynamoDb().send(
      new QueryCommand({
        TableName: config().tableName,
        IndexName: index.indexName,
        KeyConditionExpression: key.condition,
        ExpressionAttributeNames: {
          '#pk': index.partitionKey,
          ...(key.condition.includes('#sk') ? { '#sk': index.sortKey } : {}),
        },
        ExpressionAttributeValues: { ':pk': partition.partition, ...key.values },
        ScanIndexForward: range.order === 'ASC',
        Select: 'COUNT',
        Limit: Math.min(count - skipped, MAX_CHUNK),
        ...(startKey ? { ExclusiveStartKey: startKey } : {}),
      }),
    );
    skipped += page.Count ?? 0;
    startKey = page.LastEvaluatedKey;
    if (!startKey) return { skipped, exhausted: true };
    after = String(startKey[index.sortKey]);
  }
  return { skipped, ...(after !== undefined ? { after } : {}), exhausted: false };
}

/** Index queries read at most this many entries at a time (DynamoDB's own cap is 1 MB). */
const MAX_CHUNK = 1000;

/**
 * The entries of all partitions in one order (a k-way merge; sort values are unique, as each ends with
 * the nodeId). `expected` is how many entries the caller will probably take: each partition reads that
 * many (plus one) per query, so one query per partition usually serves the whole page.
 */
export async function* listEntries(
  partitions: readonly ListPartition[],
  filter: EntryFilter,
  range: EntryRange,
  expected: number,
): AsyncGenerator<ListEntry> {
  const chunk = Math.min(expected + 1, MAX_CHUNK);
  const streams = partitions.map((p) => partitionEntries(p, filter, range, chunk));
  const heads = await Promise.all(streams.map((s) => s.next()));
  // In DynamoDB's order, as each partition's entries come: JavaScript's `<` would interleave them wrongly.
  const before = (a: string, b: string) =>
    range.order === 'ASC' ? compareKeys(a, b) < 0 : compareKeys(a, b) > 0;
  for (;;) {
    let best = -1;
    heads.forEach((head, i) => {
      if (head.done) return;
      const current = heads[best];
      if (best < 0 || (current && !current.done && before(head.value.sortValue, current.value.sortValue))) {
        best = i;
      }
    });
    const winner = heads[best];
    if (!winner || winner.done) return;
    yield winner.value;
    heads[best] = await (streams[best] as AsyncGenerator<ListEntry>).next();
  }
}

/**
 * The objects of the given entries as lists show them (ListedNode), in entry order. Eventually consistent
 * like the indexes: an object deleted after its entry was read is left out.
 */
export async function fetchListed(entries: readonly ListEntry[], copy: NodeCopy): Promise<ListedNode[]> {
  const nodes = await findListedNodes(
    entries.map((entry) => entry.nodeId),
    { consistent: false, copy },
  );
  const byId = new Map(nodes.map((node) => [node.nodeId, node]));
  return entries.flatMap((entry) => {
    const node = byId.get(entry.nodeId);
    return node && !node.deleted ? [node] : [];
  });
}
