/**
 * Reading one object as a caller may see it. Apart from node-service.ts (the writes), so a function that
 * only reads does not load the write path, its payload rules and their schemas at a cold start.
 */
import { findNode } from '#shared/data/node-repository.ts';
import { NotFoundError } from '#shared/domain/errors.ts';
import type { Node } from '#shared/domain/node.ts';
import { can } from '#shared/domain/permissions.ts';
import type { Caller } from '#shared/domain/user.ts';

export const nodeNotFound = (nodeId: string) =>
  new NotFoundError('NODE_NOT_FOUND', `No object with nodeId ${nodeId}`);

/**
 * draft=true: the working copy; draft=false: the last published version (404 if never published).
 * An object the caller may not read is a 404, exactly like one that does not exist.
 */
export async function getNode(caller: Caller, nodeId: string, draft: boolean): Promise<Node> {
  const node = await findNode(nodeId, draft ? 'DRAFT' : 'PUBLISHED');
  if (!node || node.deleted || !can(caller, node, 'read')) throw nodeNotFound(nodeId);
  return node;
}
