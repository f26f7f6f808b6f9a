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

/** The stored copy a retrieve answers: the working copy, or with draft=false the published one. */
export const readNode = (nodeId: string, draft: boolean): Promise<Node | null> =>
  findNode(nodeId, draft ? 'DRAFT' : 'PUBLISHED');

/**
 * draft=true: the working copy; draft=false: the last published version (404 if never published).
 * An object the caller may not read is a 404, exactly like one that does not exist. `read` is that copy's
 * read if it was started already (readNode, beside the session check).
 */
export async function getNode(
  caller: Caller,
  nodeId: string,
  draft: boolean,
  read: Promise<Node | null> = readNode(nodeId, draft),
): Promise<Node> {
  const node = await read;
  if (!node || node.deleted || !can(caller, node, 'read')) throw nodeNotFound(nodeId);
  return node;
}
