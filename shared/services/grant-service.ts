/** Roles on environments and folders: granted and revoked by system administrators and environment admins. */
import { findNode } from '#shared/data/node-repository.ts';
import { deleteGrant, findUser, listGrantsPage, putGrant } from '#shared/data/user-repository.ts';
import { BadRequestError, ForbiddenError, NotFoundError } from '#shared/domain/errors.ts';
import type { ListPage } from '#shared/domain/list-element.ts';
import type { Node } from '#shared/domain/node.ts';
import { can, GRANTABLE_NODE_TYPES, type Role } from '#shared/domain/permissions.ts';
import type { Caller, GrantRecord } from '#shared/domain/user.ts';
import { type CursorRequest, cursorPage } from './paging.ts';

async function grantableNode(caller: Caller, nodeId: string): Promise<Node> {
  const node = await findNode(nodeId);
  if (!node || node.deleted || !can(caller, node, 'read'))
    throw new NotFoundError('NODE_NOT_FOUND', `No object with nodeId ${nodeId}`);
  if (!can(caller, node, 'grant'))
    throw new ForbiddenError('Granting roles needs the environment admin role here');
  if (!(GRANTABLE_NODE_TYPES as readonly string[]).includes(node.nodeType)) {
    throw new BadRequestError(
      'NOT_GRANTABLE',
      `Roles are granted on ${GRANTABLE_NODE_TYPES.join(', ')}, not on ${node.nodeType}`,
      [
        {
          in: 'path',
          path: '$.nodeId',
          rule: 'grantable',
          message: `must be a node of type ${GRANTABLE_NODE_TYPES.join(', ')}`,
        },
      ],
    );
  }
  return node;
}

export async function grantRole(
  caller: Caller,
  nodeId: string,
  principalId: string,
  role: Role,
): Promise<GrantRecord> {
  const node = await grantableNode(caller, nodeId);
  if (!(await findUser(principalId))) throw new NotFoundError('USER_NOT_FOUND', `No user ${principalId}`);
  const grant = {
    nodeId,
    principalId,
    role,
    grantedBy: caller.principal.principalId,
    grantedAt: new Date().toISOString(),
  };
  await putGrant(grant, node);
  return grant;
}

export async function revokeRole(caller: Caller, nodeId: string, principalId: string): Promise<void> {
  await grantableNode(caller, nodeId);
  await deleteGrant(nodeId, principalId);
}

/** The roles granted on an environment or folder, by principal, a page at a time. */
export async function grantsOn(
  caller: Caller,
  nodeId: string,
  query: CursorRequest,
): Promise<ListPage<GrantRecord>> {
  await grantableNode(caller, nodeId);
  return cursorPage(`grants ${nodeId}`, 'principalId', query, async (limit, after) => {
    const { grants, next } = await listGrantsPage(nodeId, limit, after);
    return { results: grants, ...(next ? { next } : {}) };
  });
}
