/**
 * Who may do what. System administrators may do everything. Elsewhere a role granted on an
 * environment or folder applies to its whole subtree:
 *   reader: read · editor: read, create, edit · environment admin: also delete, publish, grant.
 * An object the caller may not read does not exist for them (404 everywhere).
 */
import type { Node } from './node.ts';
import type { Caller } from './user.ts';

export const ROLES = ['READER', 'EDITOR', 'ENVIRONMENT_ADMIN'] as const;
export type Role = (typeof ROLES)[number];
export type Permission = 'read' | 'create' | 'edit' | 'delete' | 'publish' | 'grant';

const ROLE_PERMISSIONS: Record<Role, readonly Permission[]> = {
  READER: ['read'],
  EDITOR: ['read', 'create', 'edit'],
  ENVIRONMENT_ADMIN: ['read', 'create', 'edit', 'delete', 'publish', 'grant'],
};

/** Node types a role can be granted on. */
export const GRANTABLE_NODE_TYPES = ['ENVIRONMENT', 'DOCUMENT_SET', 'PROCESS_SET'] as const;

type Placed = Pick<Node, 'nodeId' | 'ancestorIds'>;

/** The roles that apply to a node: those granted on it or on any node above it. */
export function rolesOn(caller: Caller, node: Placed): Role[] {
  return [...(node.ancestorIds ?? []), node.nodeId].flatMap((id) => {
    // Own entries only: an id like `constructor` must not find Object's.
    const role = Object.hasOwn(caller.grants, id) ? caller.grants[id] : undefined;
    return role && Object.hasOwn(ROLE_PERMISSIONS, role) ? [role] : [];
  });
}

export function can(caller: Caller, node: Placed, permission: Permission): boolean {
  if (caller.systemAdmin) return true;
  return rolesOn(caller, node).some((role) => ROLE_PERMISSIONS[role].includes(permission));
}

/**
 * Whether the caller may read the parent of `node` (a node they may read), told by the node's own
 * ancestors (the parent is the last of them), without reading the parent: an answer that names the parent
 * names it only then, as a role granted below it does not reveal what lies above.
 */
export function canReadParentOf(caller: Caller, node: Pick<Node, 'parentId' | 'ancestorIds'>): boolean {
  if (!node.parentId) return false;
  return can(caller, { nodeId: node.parentId, ancestorIds: node.ancestorIds.slice(0, -1) }, 'read');
}
