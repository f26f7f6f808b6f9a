/**
 * Actions: assigned by those who may publish the target object, read by their assignee (only their
 * own, spec §4.8), completed by their assignee.
 */
import { createActions, findAction, listActionsOf, saveAction } from '#shared/data/action-repository.ts';
import { findNode } from '#shared/data/node-repository.ts';
import { findUser } from '#shared/data/user-repository.ts';
import type { Action, CreateActionsPayload, MyActionsQuery, NameElement } from '#shared/domain/action.ts';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '#shared/domain/errors.ts';
import { type Node, newId, timestamp } from '#shared/domain/node.ts';
import { can } from '#shared/domain/permissions.ts';
import { type Caller, toPrincipal } from '#shared/domain/user.ts';
import { type Page, pageOf } from './paging.ts';

const nameElement = (node: Node): NameElement => ({
  '@type': 'NameElement',
  name: node.name,
  nodeType: node.nodeType,
  nodeId: node.nodeId,
});
const actionNotFound = (actionId: string) => new NotFoundError('ACTION_NOT_FOUND', `No action ${actionId}`);

/** Creates one action per assignee; `apiBase` is this installation's /api/v1 address, for the URLs. */
export async function assignActions(
  caller: Caller,
  payload: CreateActionsPayload,
  apiBase: string,
): Promise<Action[]> {
  const nodeId = payload.targetNodeId.toUpperCase();
  const target = await findNode(nodeId);
  if (!target || target.deleted || !can(caller, target, 'read'))
    throw new NotFoundError('NODE_NOT_FOUND', `No object with nodeId ${nodeId}`);
  if (!can(caller, target, 'publish'))
    throw new ForbiddenError('Assigning actions on an object needs the right to publish it');
  const users = await Promise.all([...new Set(payload.users)].map((id) => findUser(id)));
  const missing = payload.users
    .map((id, i) => ({ id, i }))
    .filter(({ id }) => !users.some((u) => u?.principalId === id));
  if (missing.length > 0) {
    throw new ValidationError(
      missing.map(({ i }) => ({
        in: 'body',
        path: `$.users[${i}]`,
        rule: 'exists',
        message: 'must be the principalId of a user',
      })),
    );
  }
  const parent = target.parentId ? await findNode(target.parentId) : null;
  const on = payload.on ?? 'LATEST_VERSION';
  const at = timestamp();
  const actions = users.map((user): Action => {
    const actionId = newId();
    return {
      actionId,
      actionType: payload.actionType,
      actionUrl: `${apiBase}/admin/actions/${actionId}`,
      comment: payload.comment ?? '',
      dueDate: payload.dueDate,
      creationDate: at,
      nodeVersionId: newId(),
      targetNode: nameElement(target),
      parent: parent ? nameElement(parent) : null,
      targetNodeSequenceNumber: target.referenceNumber ?? '',
      targetNodeVersionId: target.nodeVersionId,
      targetVersion: target.version,
      targetUrl: `${apiBase}/items/${target.nodeId}`,
      onVersion: on === 'LATEST_VERSION' ? target.version : null,
      postId: null,
      onLatestVersion: on === 'LATEST_VERSION',
      onNextPublished: on === 'NEXT_PUBLISHED',
      onLatestPublished: on === 'LATEST_PUBLISHED',
      sentBy: caller.principal,
      user: toPrincipal(user as NonNullable<typeof user>),
      status: 'OPEN',
      completionDate: null,
    };
  });
  await createActions(actions);
  return actions;
}

/** The caller's own actions only, by due date; filtered by status and due date. */
export async function myActions(caller: Caller, query: MyActionsQuery): Promise<Page<Action>> {
  const actions = (await listActionsOf(caller.principal.principalId)).filter(
    (a) =>
      (!query.status || a.status === query.status) &&
      (!query.dueBefore || a.dueDate <= query.dueBefore) &&
      (!query.dueAfter || a.dueDate >= query.dueAfter),
  );
  return pageOf(actions, 'dueDate', query);
}

/** One action, for its assignee, its sender, those who may publish its target, and system administrators. */
export async function getAction(caller: Caller, actionId: string): Promise<Action> {
  const action = await findAction(actionId.toUpperCase());
  if (!action) throw actionNotFound(actionId);
  const me = caller.principal.principalId;
  if (caller.systemAdmin || action.user.principalId === me || action.sentBy.principalId === me) return action;
  const target = await findNode(action.targetNode.nodeId);
  if (target && !target.deleted && can(caller, target, 'publish')) return action;
  throw actionNotFound(actionId);
}

/** The assignee marks their action done. */
export async function completeAction(caller: Caller, actionId: string): Promise<Action> {
  const action = await findAction(actionId.toUpperCase());
  if (!action || action.user.principalId !== caller.principal.principalId) throw actionNotFound(actionId);
  if (action.status === 'DONE') throw new ConflictError('ACTION_DONE', 'This action is already done');
  const done: Action = { ...action, status: 'DONE', completionDate: timestamp(), nodeVersionId: newId() };
  await saveAction(done, action.nodeVersionId);
  return done;
}
