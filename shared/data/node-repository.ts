import type { Node } from '#shared/domain/node.ts';
import { childrenPartition, type NodeCopy, nodeKey, typePartition } from './keys.ts';
import { itemToNode } from './node-items.ts';
import { getItem, queryAll } from './reads.ts';
import { TABLE_SCHEMA } from './table-schema.ts';

const [byParent, byType] = TABLE_SCHEMA.indexes;

/** The working copy (or the published copy) of a node, deleted or not; null when there is none. */
export async function findNode(nodeId: string, copy: NodeCopy = 'DRAFT'): Promise<Node | null> {
  const item = await getItem(nodeKey(nodeId, copy));
  return item ? itemToNode(item) : null;
}

const nodesOf = async (indexName: string, partitionAttribute: string, partition: string) =>
  (await queryAll(partitionAttribute, partition, { indexName })).map(itemToNode);

/** Live (not deleted) children of a node, or of the library when parentId is null. */
export function findLiveChildren(parentId: string | null): Promise<Node[]> {
  return nodesOf(byParent.indexName, byParent.partitionKey, childrenPartition(parentId));
}

/** Live nodes of one type. */
export function findLiveNodesOfType(nodeType: string): Promise<Node[]> {
  return nodesOf(byType.indexName, byType.partitionKey, typePartition(nodeType));
}
