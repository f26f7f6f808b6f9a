/**
 * Live counts kept for list totals, so no list request counts items. Each node has one COUNTS item:
 *   `k#<nodeType>#<status>`  its live children of that type and status
 *   `d#<nodeType>#<status>`  its live descendants of that type and status
 * A create adds 1 to its parent's children and to every ancestor's descendants; a soft delete takes 1
 * away; a status change moves 1 between statuses. The write path puts these updates in the same
 * transaction as the writes they count, so totals never drift from the indexes.
 */
import type { Node, NodeStatus } from '#shared/domain/node.ts';
import { countsKey } from './keys.ts';
import { batchGetItems } from './reads.ts';

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
export function countUpdates(deltas: CountDeltas, TableName: string) {
  return [...deltas].flatMap(([nodeId, counts]) => {
    const changed = [...counts].filter(([, delta]) => delta !== 0);
    if (changed.length === 0) return [];
    return [
      {
        TableName,
        Key: countsKey(nodeId),
        UpdateExpression: `ADD ${changed.map((_, i) => `#c${i} :c${i}`).join(', ')}`,
        ExpressionAttributeNames: Object.fromEntries(changed.map(([attribute], i) => [`#c${i}`, attribute])),
        ExpressionAttributeValues: Object.fromEntries(changed.map(([, delta], i) => [`:c${i}`, delta])),
      },
    ];
  });
}

/** Counts of one node: attribute → number (absent counters are 0). */
export type NodeCounts = Record<string, number>;

/** The COUNTS items of the given nodes (strongly consistent, one small item each). */
export async function readCounts(nodeIds: string[]): Promise<Map<string, NodeCounts>> {
  const result = new Map<string, NodeCounts>(nodeIds.map((id) => [id, {}]));
  for (const { PK, ...attributes } of await batchGetItems(nodeIds.map(countsKey), { consistent: true })) {
    const counts = Object.entries(attributes).filter(
      ([name, value]) => /^[kd]#/.test(name) && typeof value === 'number',
    );
    result.set(String(PK).slice('NODE#'.length), Object.fromEntries(counts) as NodeCounts);
  }
  return result;
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
