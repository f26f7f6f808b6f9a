/**
 * Actions: assigned by those who may publish the target object to users who can read it, read by their
 * assignee (only their own, spec §4.8), completed by their assignee. Answers show a principal's contact
 * details only to that user and to system administrators, and build their links from the installation's
 * address at answer time. Answers name the object, its parent, the assignee and the sender as they are
 * when the action is read (a rename, a publish, a profile changed by an administrator shows at once): read
 * in batches, beside the reads each answer makes anyway.
 */
import {
  createActions,
  findAction,
  findActions,
  listActionsOf,
  saveAction,
} from '#shared/data/action-repository.ts';
import type { ParentNode } from '#shared/data/entities/nodes.ts';
import { findNode, findNodes, findParentNodes } from '#shared/data/node-repository.ts';
import { findPrincipals, findUser } from '#shared/data/user-repository.ts';
import {
  type Action,
  actionSeenBy,
  type CreateActionsPayload,
  type MyActionsQuery,
  type StoredAction,
  withoutContact,
} from '#shared/domain/action.ts';
import {
  bodyError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
  ValidationError,
} from '#shared/domain/errors.ts';
import { type Node, nameElement, newId, timestamp } from '#shared/domain/node.ts';
import { can, canReadParentOf } from '#shared/domain/permissions.ts';
import { type Caller, callerOf, type Principal, toPrincipal, type User } from '#shared/domain/user.ts';
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
      // Kept as keys (and the users as what a user no longer there is shown as): answers read them anew.
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
      sentBy: withoutContact(caller.principal),
      user: withoutContact(toPrincipal(user)),
      status: 'OPEN',
      completionDate: null,
    }),
  );
  await createActions(actions);
  // Everything it names was just read: the caller as their session has them, the assignees from their items.
  const people = new Map<string, Principal>([
    [caller.principal.principalId, caller.principal],
    ...users.map((user) => [user.principalId, toPrincipal(user)] as const),
  ]);
  return (await withTargetVersions(actions)).map((action) =>
    actionSeenBy(action, caller, apiBase, { target, parent, people }),
  );
}

/** The current profiles of the users these actions name (assignees and senders): one BatchGet of each once. */
async function peopleNamedIn(actions: readonly StoredAction[]): Promise<Map<string, Principal>> {
  const ids = [...new Set(actions.flatMap((a) => [a.user.principalId, a.sentBy.principalId]))];
  return new Map((await findPrincipals(ids)).map((principal) => [principal.principalId, principal]));
}

/**
 * The parents of these objects that the caller may read (told by where the objects sit: the others are not
 * read), as they are now, by nodeId: one BatchGet of each once.
 */
async function readableParentsOf(
  caller: Caller,
  targets: readonly Node[],
  options: { consistent: boolean },
): Promise<Map<string, ParentNode>> {
  const ids = [
    ...new Set(
      targets.flatMap((target) => (canReadParentOf(caller, target) ? [target.parentId as string] : [])),
    ),
  ];
  return new Map((await findParentNodes(ids, options)).map((parent) => [parent.nodeId, parent]));
}

/**
 * The action's object, if it is live (not in the trash, not purged) and the caller may still read it
 * (grants can be revoked after assignment); else null. An action on an object gone is gone with it.
 */
async function readableTarget(caller: Caller, action: StoredAction): Promise<Node | null> {
  const target = await findNode(action.targetNode.nodeId);
  return target && !target.deleted && can(caller, target, 'read') ? target : null;
}

/** One action's object (as readableTarget finds it) and what else it names, as they are now. */
interface Named {
  target: Node;
  parent: ParentNode | undefined;
  people: Map<string, Principal>;
}

/**
 * One action's object (null: the caller no longer sees the action) and, read beside it, the profiles of its
 * assignee and sender and the object's parent, by the id the action keeps (objects do not move; should one
 * have moved, its parent now is read after it). A parent the caller may not read is not shown (actionSeenBy).
 */
async function readNamed(caller: Caller, action: StoredAction): Promise<Named | null> {
  const keptParentId = action.parent?.nodeId;
  const [target, kept, people] = await Promise.all([
    readableTarget(caller, action),
    keptParentId ? findParentNodes([keptParentId]) : [],
    peopleNamedIn([action]),
  ]);
  if (!target) return null;
  if (!target.parentId || !canReadParentOf(caller, target)) return { target, parent: undefined, people };
  const [parent] = kept[0]?.nodeId === target.parentId ? kept : await findParentNodes([target.parentId]);
  return { target, parent, people };
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
  const page = pageOf(
    matching.filter((a) => readable.has(a.targetNode.nodeId)),
    'dueDate',
    query,
  );
  // What the page's actions name, read for that page only, all at once: the versions they are about, the
  // parents (as eventually consistent as the objects), the assignee's and senders' profiles.
  const targetOf = (a: StoredAction) => readable.get(a.targetNode.nodeId) as Node;
  const [versioned, parents, people] = await Promise.all([
    withTargetVersions(page.results),
    readableParentsOf(caller, [...new Set(page.results.map(targetOf))], { consistent: false }),
    peopleNamedIn(page.results),
  ]);
  const results = versioned.map((a) => {
    const target = targetOf(a);
    const parent = target.parentId ? parents.get(target.parentId) : undefined;
    return actionSeenBy(a, caller, apiBase, { target, parent, people });
  });
  return { ...page, results };
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
  const named = await readNamed(caller, action);
  if (!named) throw actionNotFound(actionId);
  const seen = async () =>
    actionSeenBy((await withTargetVersions([action]))[0] as StoredAction, caller, apiBase, named);
  const mine = action.user.principalId === me || action.sentBy.principalId === me;
  if (mine || can(caller, named.target, 'publish')) return seen();
  throw actionNotFound(actionId);
}

/** The assignee marks their action done, while they can read its object (as they see it: getAction). */
export async function completeAction(caller: Caller, actionId: string, apiBase: string): Promise<Action> {
  const action = await findAction(actionId);
  const named =
    action && action.user.principalId === caller.principal.principalId
      ? await readNamed(caller, action)
      : null;
  if (!action || !named) throw actionNotFound(actionId);
  if (action.status === 'DONE') throw new ConflictError('ACTION_DONE', 'This action is already done');
  const done: StoredAction = {
    ...action,
    status: 'DONE',
    completionDate: timestamp(),
    nodeVersionId: newId(),
  };
  await saveAction(done, action.nodeVersionId);
  return actionSeenBy((await withTargetVersions([done]))[0] as StoredAction, caller, apiBase, named);
}
