/**
 * Live counts kept for list totals, so no list request counts items. A node's counts are spread over
 * COUNT_SHARDS small items (write-sharded counters), each holding
 *   `k#<nodeType>#<status>`  live children of that type and status
 *   `d#<nodeType>#<status>`  live descendants of that type and status
 * and a node's count is the sum over its shards. A create adds 1 to its parent's children and to every
 * ancestor's descendants; a soft delete takes 1 away; a status change moves 1 between statuses. The
 * write path puts these updates in the same transaction as the writes they count (all of one commit in
 * one shard, picked at random), so totals never drift from the indexes, and concurrent writers under one
 * environment meet on one counts item only when they pick the same shard.
 *
 * Reading a node's counts is one consistent Query of its shards: about 1 RCU for 16 small items.
 */
import type { Node, NodeStatus } from '#shared/domain/node.ts';
import type { Item } from './entity.ts';
import { COUNTS_PREFIX, countsKey, nodeKey } from './keys.ts';
import { queryAll } from './reads.ts';
import { TABLE_SCHEMA } from './table-schema.ts';

export const COUNT_SHARDS = 16;

/** The shard a commit's count updates go to. */
export const pickShard = () => Math.floor(Math.random() * COUNT_SHARDS);

export type CountKind = 'k' | 'd';
export const countAttribute = (kind: CountKind, nodeType: string, status: NodeStatus) =>
  `${kind}#${nodeType}#${status}`;

/** Count changes, by the nodeId whose COUNTS item they change, then by attribute. */
export type CountDeltas = Map<string, Map<string, number>>;

function add(deltas: CountDeltas, nodeId: string, attribute: string, delta: number): void {
  const counts = deltas.get(nodeId) ?? new Map<string, number>();
  counts.set(attribute, (counts.get(attribute) ?? 0) + delta);
  deltas.set(nodeId, counts);
}

/** Adds `delta` nodes of this node's type and `status` to the counts above it. */
export function countNode(deltas: CountDeltas, node: Node, status: NodeStatus, delta: number): void {
  if (node.parentId) add(deltas, node.parentId, countAttribute('k', node.nodeType, status), delta);
  for (const ancestorId of node.ancestorIds ?? []) {
    add(deltas, ancestorId, countAttribute('d', node.nodeType, status), delta);
  }
}

/** The counts that did change, as UpdateItem inputs (ADD is atomic and creates missing counters). */
export function countUpdates(deltas: CountDeltas, TableName: string, shard: number) {
  return [...deltas].flatMap(([nodeId, counts]) => {
    const changed = [...counts].filter(([, delta]) => delta !== 0);
    if (changed.length === 0) return [];
    return [
      {
        TableName,
        Key: countsKey(nodeId, shard),
        UpdateExpression: `ADD ${changed.map((_, i) => `#c${i} :c${i}`).join(', ')}`,
        ExpressionAttributeNames: Object.fromEntries(changed.map(([attribute], i) => [`#c${i}`, attribute])),
        ExpressionAttributeValues: Object.fromEntries(changed.map(([, delta], i) => [`:c${i}`, delta])),
      },
    ];
  });
}

/** Counts of one node: attribute → number (absent counters are 0). */
export type NodeCounts = Record<string, number>;

/** The sum of count shards. */
function summed(shards: Item[]): NodeCounts {
  const counts: NodeCounts = {};
  for (const shard of shards) {
    for (const [name, value] of Object.entries(shard)) {
      if (/^[kd]#/.test(name) && typeof value === 'number') counts[name] = (counts[name] ?? 0) + value;
    }
  }
  return counts;
}

/** The counts of the given nodes, each summed over its shards (strongly consistent). */
export async function readCounts(nodeIds: string[]): Promise<Map<string, NodeCounts>> {
  const all = await Promise.all(
    nodeIds.map(async (nodeId) => {
      const shards = await queryAll(TABLE_SCHEMA.partitionKey, nodeKey(nodeId).PK, {
        sortKeyPrefix: { attribute: TABLE_SCHEMA.sortKey, prefix: COUNTS_PREFIX },
        consistent: true,
      });
      return [nodeId, summed(shards)] as const;
    }),
  );
  return new Map(all);
}

/**
 * A node's working copy item and its counts, in one consistent Query: they share the node's partition,
 * where nothing else sorts between the counts' shards and the working copy (COUNTS#… < DRAFT). A list of a
 * folder's children needs both, and one read instead of two is one round trip less.
 */
export async function readNodeItemAndCounts(
  nodeId: string,
): Promise<{ item: Item | null; counts: NodeCounts }> {
  const { PK, SK } = nodeKey(nodeId);
  const items = await queryAll(TABLE_SCHEMA.partitionKey, PK, {
    sortKeyBetween: { attribute: TABLE_SCHEMA.sortKey, from: COUNTS_PREFIX, to: SK },
    consistent: true,
  });
  const item = items.find((candidate) => candidate[TABLE_SCHEMA.sortKey] === SK) ?? null;
  return { item, counts: summed(items.filter((candidate) => candidate !== item)) };
}

/** Sum of the counters of one kind, optionally only for some nodeTypes and one status. */
export function sumCounts(
  counts: NodeCounts,
  kind: CountKind,
  nodeTypes?: ReadonlySet<string>,
  status?: NodeStatus,
): number {
  let total = 0;
  for (const [attribute, value] of Object.entries(counts)) {
    const [k, nodeType, nodeStatus] = attribute.split('#');
    if (k !== kind || (nodeTypes && !nodeTypes.has(nodeType as string))) continue;
    if (status && nodeStatus !== status) continue;
    total += Number(value);
  }
  return total;
}
