import type { Node } from '#shared/domain/node.ts';
import { DELETE_LEASE_ATTRIBUTE, type NodeCopy, nodeKey } from './keys.ts';
import { LIST_ATTRIBUTE_NAMES, listAttributesOf } from './list-indexes.ts';

/**
 * Item ↔ domain mapping of nodes. Only the live working copy (DRAFT) is in the list indexes; a deleted
 * node's item has no list attributes, so it leaves every list.
 */
export function nodeToItem(node: Node, copy: NodeCopy = 'DRAFT'): Record<string, unknown> {
  const listAttributes = copy === 'DRAFT' && !node.deleted ? listAttributesOf(node) : {};
  return { ...nodeKey(node.nodeId, copy), ...listAttributes, entity: 'Node', ...node };
}

const ITEM_ONLY_ATTRIBUTES = new Set(['PK', 'SK', 'entity', DELETE_LEASE_ATTRIBUTE, ...LIST_ATTRIBUTE_NAMES]);

export function itemToNode(item: Record<string, unknown>): Node {
  return Object.fromEntries(
    Object.entries(item).filter(([name]) => !ITEM_ONLY_ATTRIBUTES.has(name)),
  ) as unknown as Node;
}
