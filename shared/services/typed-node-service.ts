/**
 * Per-type retrieve (spec §4.4): the node fields plus its kind's own (a document's URL or file, a
 * process's tasks and edges, an entity's attributes). An id of another type is a 404, as is an object the
 * caller may not read.
 */
import { findLiveChildren, findParentNodesAsShown } from '#shared/data/node-repository.ts';
import { NotFoundError } from '#shared/domain/errors.ts';
import type { Node } from '#shared/domain/node.ts';
import { type TypedElement, toTypedElement } from '#shared/domain/node-elements.ts';
import { kindOf } from '#shared/domain/node-types.ts';
import { canReadParentOf } from '#shared/domain/permissions.ts';
import type { Caller } from '#shared/domain/user.ts';
import { getNode } from './node-reads.ts';
import { diagramOf, edgeView, publishedDiagramOf } from './process-diagram-service.ts';
import { relationSummaryOf } from './relation-service.ts';

async function parentAsShown(parentId: string, draft: boolean) {
  const [parent] = await findParentNodesAsShown([parentId], { copy: draft ? 'DRAFT' : 'PUBLISHED' });
  return parent ?? null;
}

const byCreation = (a: Node, b: Node) =>
  a.creationDate.localeCompare(b.creationDate) || a.nodeId.localeCompare(b.nodeId);

export async function getTypedNode(
  caller: Caller,
  nodeId: string,
  nodeTypes: readonly string[],
  draft: boolean,
  read?: Promise<Node | null>,
): Promise<TypedElement> {
  const node = await getNode(caller, nodeId, draft, read);
  if (!nodeTypes.includes(node.nodeType))
    throw new NotFoundError('NODE_NOT_FOUND', `No ${nodeTypes.join(' or ').toLowerCase()} with id ${nodeId}`);
  const { childLists } = kindOf(node.nodeType);
  const isProcess = node.nodeType === 'PROCESS';
  const [parent, children, published, relationSummary] = await Promise.all([
    // A parent the caller may not read (a role granted below it) is not named, nor read.
    // draft=false names it as published.
    canReadParentOf(caller, node) ? parentAsShown(node.parentId as string, draft) : null,
    // draft=false: the published versions of the children; a process's, those of its published diagram.
    childLists.length > 0 && (draft || !isProcess)
      ? findLiveChildren(node.nodeId, draft ? 'DRAFT' : 'PUBLISHED')
      : [],
    isProcess && !draft ? publishedDiagramOf(node.nodeId) : undefined,
    relationSummaryOf(caller, node, draft),
  ]);
  const listed = Object.fromEntries(
    childLists.map((list) => [
      list.field,
      children.filter((c) => c.nodeType === list.nodeType).sort(byCreation),
    ]),
  );
  if (isProcess) {
    // Its diagram: the tasks in sequence, and the edges between live tasks; draft=false: as published.
    const { tasks, edges } = published ?? (await diagramOf(node.nodeId, listed.tasks ?? []));
    return toTypedElement(
      node,
      parent,
      { ...listed, tasks },
      { edges: edges.map(edgeView), relationSummary },
    );
  }
  return toTypedElement(node, parent, listed, { relationSummary });
}
