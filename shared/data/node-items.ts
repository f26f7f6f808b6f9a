import type { Node } from '#shared/domain/node.ts';
import { childrenIndexKeys, type NodeCopy, nodeKey, typeIndexKeys } from './keys.ts';

/** Item ↔ domain mapping of nodes. Only the working copy (DRAFT) is indexed for lists. */
export function nodeToItem(node: Node, copy: NodeCopy = 'DRAFT'): Record<string, unknown> {
  const indexKeys =
    copy === 'DRAFT'
      ? {
          ...childrenIndexKeys(node.parentId, node.nodeId, node.deleted),
          ...typeIndexKeys(node.nodeType, node.nodeId, node.deleted),
        }
      : {};
  return { ...nodeKey(node.nodeId, copy), ...indexKeys, entity: 'Node', ...node };
}

export function itemToNode(item: Record<string, unknown>): Node {
  const { PK, SK, GSI1PK, GSI1SK, GSI2PK, GSI2SK, entity, ...node } = item;
  return node as unknown as Node;
}
