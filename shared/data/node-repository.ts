/**
 * Reads of nodes. Writes go through node-write-path.ts. A node a batch wrote exists for readers only once
 * its batch has committed (diagram-batches.ts): every read here leaves out the others.
 */
import type { ListedNode } from '#shared/domain/list-element.ts';
import type { Node } from '#shared/domain/node.ts';
import { committedAmong } from './diagram-batches.ts';
import { childLinks, listedNodes, nodes, type ParentNode, parentNodes } from './entities/nodes.ts';
import { CHILD_LINK_PREFIX, type NodeCopy, nodeKey } from './keys.ts';
import { type NodeCounts, readNodeItemAndCounts } from './node-counts.ts';
import { batchGetItems, getItem, queryAll } from './reads.ts';
import { TABLE_SCHEMA } from './table-schema.ts';

/** The working copy (or the published copy) of a node, deleted or not; null when there is none. */
export async function findNode(nodeId: string, copy: NodeCopy = 'DRAFT'): Promise<Node | null> {
  const item = await getItem(nodeKey(nodeId, copy));
  if (!item) return null;
  const [node] = await visible([nodes.fromItem(item)]);
  return node ?? null;
}

/** The working copy of a node (as findNode finds it) and the counts of what lies under it, in one read. */
export async function findNodeWithCounts(nodeId: string): Promise<{ node: Node | null; counts: NodeCounts }> {
  const { item, counts } = await readNodeItemAndCounts(nodeId);
  if (!item) return { node: null, counts };
  const [node] = await visible([nodes.fromItem(item)]);
  return { node: node ?? null, counts };
}

type Batched = Pick<Node, 'batchId' | 'parentId'>;

const batchOf = (node: Batched) =>
  node.batchId && node.parentId ? { processId: node.parentId, batchId: node.batchId } : undefined;

/** The nodes that exist for readers: those of no batch, or of a committed one. */
async function visible<N extends Batched>(found: N[]): Promise<N[]> {
  const refs = found.flatMap((node) => batchOf(node) ?? []);
  if (refs.length === 0) return found;
  const committed = await committedAmong(refs);
  return found.filter((node) => {
    const ref = batchOf(node);
    return !ref || committed(ref);
  });
}

/**
 * Ids of a node's live children (of `ofTypes` only, if given), strongly consistent (from the parent's child
 * records, which name each child's type).
 */
export async function findLiveChildIds(parentId: string, ofTypes?: ReadonlySet<string>): Promise<string[]> {
  const links = await queryAll(TABLE_SCHEMA.partitionKey, nodeKey(parentId).PK, {
    sortKeyPrefix: { attribute: TABLE_SCHEMA.sortKey, prefix: CHILD_LINK_PREFIX },
    consistent: true,
  });
  return links
    .map((link) => childLinks.fromItem(link))
    .filter((link) => !ofTypes || ofTypes.has(link.nodeType))
    .map((link) => link.childId);
}

interface CopyReads {
  consistent?: boolean;
  copy?: NodeCopy;
}

/** The copies of many nodes by key, read as `read` says (whole items, or only some attributes). */
async function readCopies<N extends Batched>(
  nodeIds: string[],
  { consistent = true, copy = 'DRAFT' }: CopyReads,
  read: { fromItem: (item: Record<string, unknown>) => N; attributes?: readonly string[] },
): Promise<N[]> {
  const items = await batchGetItems(
    nodeIds.map((id) => nodeKey(id, copy)),
    { consistent, ...(read.attributes ? { attributes: read.attributes } : {}) },
  );
  return visible(items.map(read.fromItem));
}

/**
 * Many nodes (working copies unless another copy is named), in no particular order: strongly consistent
 * unless the caller can do with eventually consistent reads (half the cost), as lists can.
 */
export function findNodes(nodeIds: string[], options: CopyReads = {}): Promise<Node[]> {
  return readCopies(nodeIds, options, nodes);
}

/** Many nodes as lists read them (ListedNode: only those attributes are read), as findNodes finds them. */
export function findListedNodes(nodeIds: string[], options: CopyReads = {}): Promise<ListedNode[]> {
  return readCopies(nodeIds, options, {
    fromItem: listedNodes.fromItem,
    attributes: listedNodes.attributes(),
  });
}

/** Many nodes as a list names them as parents, with where they sit (only those attributes are read). */
export function findParentNodes(nodeIds: string[], options: CopyReads = {}): Promise<ParentNode[]> {
  return readCopies(nodeIds, options, {
    fromItem: parentNodes.fromItem,
    attributes: parentNodes.attributes(),
  });
}

/**
 * Parents as a view of `copy` names them: a published view by their published copies (a name changed since
 * is not published), one never published by its working copy.
 */
export async function findParentNodesAsShown(
  nodeIds: string[],
  { copy = 'DRAFT', consistent = true }: CopyReads,
): Promise<ParentNode[]> {
  if (copy === 'DRAFT') return findParentNodes(nodeIds, { consistent });
  const [published, working] = await Promise.all([
    findParentNodes(nodeIds, { consistent, copy }),
    findParentNodes(nodeIds, { consistent }),
  ]);
  const publishedById = new Map(published.map((node) => [node.nodeId, node]));
  return working.map((node) => publishedById.get(node.nodeId) ?? node);
}

/**
 * Live children of a node, strongly consistent (for a process's tasks, an entity's attributes): their
 * working copies, or the published copies of those that have one.
 */
export async function findLiveChildren(parentId: string, copy: NodeCopy = 'DRAFT'): Promise<Node[]> {
  return (await findNodes(await findLiveChildIds(parentId), { copy })).filter((node) => !node.deleted);
}
