/**
 * Per-type retrieve (spec §4.4): the node fields plus its type's own: a document's URL or file, a
 * process's tasks and edges, an entity's attributes. An id of another type is a 404, as is an object
 * the caller may not read.
 */
import { findLiveChildren, findNode } from '#shared/data/node-repository.ts';
import type { NameElement } from '#shared/domain/action.ts';
import { NotFoundError } from '#shared/domain/errors.ts';
import { type BaseElement, type FileInfo, type Node, toBaseElement } from '#shared/domain/node.ts';
import { nodeTypeDefinition } from '#shared/domain/node-types.ts';
import type { Caller } from '#shared/domain/user.ts';
import { getNode } from './node-service.ts';

export interface TypedElement extends Omit<BaseElement, '@type'> {
  /** The object's own type (Document, Process, Role, …). */
  '@type': string;
  parent: NameElement | null;
  richTextDescription: string | null;
  documentType?: string | null;
  url?: string | null;
  fileInfo?: FileInfo | null;
  /** Processes: their tasks (by creation), and the edges between them (none until tasks are placed). */
  tasks?: BaseElement[];
  edges?: unknown[];
  /** Master-data entities: their attributes. */
  attributes?: NameElement[];
}

const nameElement = (node: Node): NameElement => ({
  '@type': 'NameElement',
  name: node.name,
  nodeType: node.nodeType,
  nodeId: node.nodeId,
});
const byCreation = (a: Node, b: Node) =>
  a.creationDate.localeCompare(b.creationDate) || a.nodeId.localeCompare(b.nodeId);

export async function getTypedNode(
  caller: Caller,
  nodeId: string,
  nodeTypes: readonly string[],
  draft: boolean,
): Promise<TypedElement> {
  const node = await getNode(caller, nodeId, draft);
  if (!nodeTypes.includes(node.nodeType))
    throw new NotFoundError('NODE_NOT_FOUND', `No ${nodeTypes.join(' or ').toLowerCase()} with id ${nodeId}`);
  const parent = node.parentId ? await findNode(node.parentId) : null;
  const typed: TypedElement = {
    ...toBaseElement(node),
    '@type': nodeTypeDefinition(node.nodeType)?.payloadType ?? 'BaseElement',
    parent: parent ? nameElement(parent) : null,
    richTextDescription: node.richTextDescription,
  };
  if (node.nodeType === 'DOCUMENT')
    Object.assign(typed, { documentType: node.documentType, url: node.url, fileInfo: node.fileInfo });
  if (node.nodeType === 'PROCESS') {
    const tasks = (await findLiveChildren(node.nodeId)).filter((c) => c.nodeType === 'TASK').sort(byCreation);
    Object.assign(typed, { tasks: tasks.map(toBaseElement), edges: [] });
  }
  if (node.nodeType === 'ENTITY') {
    const attributes = (await findLiveChildren(node.nodeId))
      .filter((c) => c.nodeType === 'ATTRIBUTE')
      .sort(byCreation);
    typed.attributes = attributes.map(nameElement);
  }
  return typed;
}
