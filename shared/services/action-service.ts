/**
 * Actions: assigned by those who may publish the target object to users who can read it, read by their
 * assignee (only their own, spec §4.8), completed by their assignee. Answers show a principal's contact
 * details only to that user and to system administrators, and build their links from the installation's
 * address at answer time.
 */
import {
  createActions,
  findAction,
  findActions,
  listActionsOf,
  saveAction,
} from '#shared/data/action-repository.ts';
import { findNode, findNodes } from '#shared/data/node-repository.ts';
import { findUser } from '#shared/data/user-repository.ts';
import {
  type Action,
  actionSeenBy,
  type CreateActionsPayload,
  type MyActionsQuery,
  type StoredAction,
} from '#shared/domain/action.ts';
import {
  bodyError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
  ValidationError,
} from '#shared/domain/errors.ts';
import { type Node, nameElement, newId, timestamp } from '#shared/domain/node.ts';
import { can } from '#shared/domain/permissions.ts';
import { type Caller, callerOf, toPrincipal, type User } from '#shared/domain/user.ts';
import { withTargetVersions } from './action-targets.ts';
import { type Page, pageOf } from './paging.ts';

const actionNotFound = (actionId: string) => new NotFoundError('ACTION_NOT_FOUND', `No action ${actionId}`);

/** Whether the user holds a role on a node of this environment (the environment itself included). */
function holdsRoleIn(user: User, environmentId: string, roleNodes: Map<string, Node>): boolean {
  return Object.keys(user.grants ?? {}).some((id) => roleNodes.get(id)?.environmentId === environmentId);
}

/**
 * Who may be assigned an action on `target` by `caller`: a user who can read the target; for a caller who
 * is not a system administrator, also one who holds a role in the target's environment (an environment
 * admin works with the people of their environment, and learns nothing of anyone else's).
 */
async function eligibleAssignees(caller: Caller, target: Node, principalIds: string[]): Promise<User[]> {
  const found = new Map(
    await Promise.all([...new Set(principalIds)].map(async (id) => [id, await findUser(id)] as const)),
  );
  const users = principalIds.map((id) => found.get(id) ?? null);
  const grantedIds = [...new Set(users.flatMap((user) => Object.keys(user?.grants ?? {})))];
  const roleNodes = new Map((await findNodes(grantedIds)).map((node) => [node.nodeId, node]));
  const errors = users.flatMap((user, i) => {
    const eligible =
      user !== null &&
      user.status === 'ACTIVE' &&
      can(callerOf(user), target, 'read') &&
      (caller.systemAdmin || holdsRoleIn(user, target.environmentId, roleNodes));
    // An unknown user and one who may not be assigned look the same: existence is not revealed.
    return eligible
      ? []
      : [
          bodyError(
            `$.users[${i}]`,
            'assignable',
            'must be the principalId of an active user of this environment who can read the object',
          ),
        ];
  });
  if (errors.length > 0) throw new ValidationError(errors);
  return users as User[];
}

/** Creates one action per assignee; `apiBase` is this installation's /api/v1 address, for the links. */
export async function assignActions(
  caller: Caller,
  payload: CreateActionsPayload,
  apiBase: string,
): Promise<Action[]> {
  const nodeId = payload.targetNodeId;
  const target = await findNode(nodeId);
  if (!target || target.deleted || !can(caller, target, 'read'))
    throw new NotFoundError('NODE_NOT_FOUND', `No object with nodeId ${nodeId}`);
  if (!can(caller, target, 'publish'))
    throw new ForbiddenError('Assigning actions on an object needs the right to publish it');
  // Judged as sent (an error names the entry where it was), then each user once.
  const users = [
    ...new Map(
      (await eligibleAssignees(caller, target, payload.users)).map((user) => [user.principalId, user]),
    ).values(),
  ];
  const parent = target.parentId ? await findNode(target.parentId) : null;
  const on = payload.on ?? 'LATEST_VERSION';
  const at = timestamp();
  const actions = users.map(
    (user): StoredAction => ({
      actionId: newId(),
      actionType: payload.actionType,
      comment: payload.comment ?? '',
      dueDate: payload.dueDate,
      creationDate: at,
      nodeVersionId: newId(),
      targetNode: nameElement(target),
      parent: parent ? nameElement(parent) : null,
      targetNodeSequenceNumber: target.referenceNumber ?? '',
      // The version the action is about: this one, or (next or latest published) found when it is read.
      targetNodeVersionId: on === 'LATEST_VERSION' ? target.nodeVersionId : null,
      targetVersion: on === 'LATEST_VERSION' ? target.version : null,
      onVersion: on === 'LATEST_VERSION' ? target.version : null,
      postId: null,
      onLatestVersion: on === 'LATEST_VERSION',
      onNextPublished: on === 'NEXT_PUBLISHED',
      onLatestPublished: on === 'LATEST_PUBLISHED',
      sentBy: caller.principal,
      user: toPrincipal(user),
      status: 'OPEN',
      completionDate: null,
    }),
  );
  await createActions(actions);
  return (await withTargetVersions(actions)).map((action) => actionSeenBy(action, caller, apiBase, target));
}

/**
 * The action's object, if it is live (not in the trash, not purged) and the caller may still read it
 * (grants can be revoked after assignment); else null. An action on an object gone is gone with it.
 */
async function readableTarget(caller: Caller, action: StoredAction): Promise<Node | null> {
  const target = await findNode(action.targetNode.nodeId);
  return target && !target.deleted && can(caller, target, 'read') ? target : null;
}

/**
 * The caller's own actions only, by due date; filtered by status and due date. An action whose object the
 * caller can no longer read is left out: it would tell them the object's name.
 */
export async function myActions(
  caller: Caller,
  query: MyActionsQuery,
  apiBase: string,
): Promise<Page<Action>> {
  const due = (a: StoredAction) =>
    (!query.dueBefore || a.dueDate <= query.dueBefore) && (!query.dueAfter || a.dueDate >= query.dueAfter);
  const indexed = (await listActionsOf(caller.principal.principalId)).filter(due);
  const matching = (await current(indexed)).filter((a) => !query.status || a.status === query.status);
  const targetIds = [...new Set(matching.map((a) => a.targetNode.nodeId))];
  const readable = new Map(
    (targetIds.length > 0 ? await findNodes(targetIds, { consistent: false }) : [])
      .filter((node) => !node.deleted && can(caller, node, 'read'))
      .map((node) => [node.nodeId, node]),
  );
  const actions = (await withTargetVersions(matching.filter((a) => readable.has(a.targetNode.nodeId)))).map(
    (a) => actionSeenBy(a, caller, apiBase, readable.get(a.targetNode.nodeId) as Node),
  );
  return pageOf(actions, 'dueDate', query);
}

/**
 * The index lags the table, so an action its assignee has just completed can still read OPEN there: open
 * ones are read again from the table (a DONE action never changes again), keeping the index's order.
 */
async function current(indexed: StoredAction[]): Promise<StoredAction[]> {
  const open = indexed.filter((a) => a.status !== 'DONE').map((a) => a.actionId);
  if (open.length === 0) return indexed;
  const stored = new Map((await findActions(open)).map((a) => [a.actionId, a]));
  return indexed.flatMap((a) => (a.status === 'DONE' ? [a] : (stored.get(a.actionId) ?? [])));
}

/**
 * One action, for its assignee, its sender, those who may publish its target, and system administrators,
 * while its object is live: an assignee or sender who can no longer read the object no longer sees it (it
 * shows the object's name and which version is published), and an object deleted takes it along.
 */
export async function getAction(caller: Caller, actionId: string, apiBase: string): Promise<Action> {
  const action = await findAction(actionId);
  if (!action) throw actionNotFound(actionId);
  const me = caller.principal.principalId;
  const target = await readableTarget(caller, action);
  if (!target) throw actionNotFound(actionId);
  const seen = async () =>
    actionSeenBy((await withTargetVersions([action]))[0] as StoredAction, caller, apiBase, target);
  const mine = action.user.principalId === me || action.sentBy.principalId === me;
  if (mine || can(caller, target, 'publish')) return seen();
  throw actionNotFound(actionId);
}

/** The assignee marks their action done, while they can read its object (as they see it: getAction). */
export async function completeAction(caller: Caller, actionId: string, apiBase: string): Promise<Action> {
  const action = await findAction(actionId);
  const target =
    action && action.user.principalId === caller.principal.principalId
      ? await readableTarget(caller, action)
      : null;
  if (!action || !target) throw actionNotFound(actionId);
  if (action.status === 'DONE') throw new ConflictError('ACTION_DONE', 'This action is already done');
  const done: StoredAction = {
    ...action,
    status: 'DONE',
    completionDate: timestamp(),
    nodeVersionId: newId(),
  };
  await saveAction(done, action.nodeVersionId);
  return actionSeenBy((await withTargetVersions([done]))[0] as StoredAction, caller, apiBase, target);
}
