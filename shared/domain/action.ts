/** Actions (spec §2.6): tasks assigned to a user about an object, e.g. a training on a process. */
import * as z from 'zod/mini';
import { type Node, nameElement, nameElementSchema } from './node.ts';
import { canReadParentOf } from './permissions.ts';
import {
  calendarDateSchema,
  named,
  nullableString,
  pageOf,
  readableTextSchema,
  timestampSchema,
  uuidSchema,
} from './schema-parts.ts';
import { type Caller, type Principal, principalSchema } from './user.ts';

export const ACTION_TYPES = ['TRAINING', 'REVIEW', 'APPROVAL', 'ACKNOWLEDGEMENT'] as const;
export const ACTION_TARGETS = ['LATEST_VERSION', 'NEXT_PUBLISHED', 'LATEST_PUBLISHED'] as const;
export const ACTION_STATUSES = ['OPEN', 'DONE'] as const;
export type ActionStatus = (typeof ACTION_STATUSES)[number];

/** Spec §2.6 action, with its status and completion date. */
export const actionSchema = named(
  z.strictObject({
    actionId: z.string(),
    actionType: z.string(),
    actionUrl: z.url(),
    comment: z.string(),
    dueDate: calendarDateSchema,
    creationDate: timestampSchema,
    nodeVersionId: z.string(),
    targetNode: nameElementSchema,
    parent: z.nullable(nameElementSchema),
    targetNodeSequenceNumber: z.string(),
    targetNodeVersionId: nullableString,
    targetVersion: nullableString,
    targetUrl: nullableString,
    onVersion: nullableString,
    postId: nullableString,
    onLatestVersion: z.boolean(),
    onNextPublished: z.boolean(),
    onLatestPublished: z.boolean(),
    sentBy: principalSchema,
    user: principalSchema,
    /** Beyond §2.6: whether the assignee has completed it, and when. */
    status: z.enum(ACTION_STATUSES),
    completionDate: z.nullable(timestampSchema),
  }),
  'Action',
);
export type Action = z.output<typeof actionSchema>;
export const actionsSchema = z.array(actionSchema);
export const actionsPageSchema = pageOf(actionSchema);

/**
 * An action as kept: its links are not stored (they are built for each answer from the installation's
 * address, never from a request's Host). What it names is not shown as kept either: its object, that
 * object's parent, its assignee and its sender are read as they are when the action is read (actionSeenBy),
 * so a rename, a publish or a changed profile shows at once. What is kept of them serves as keys (the
 * object's and parent's nodeIds, the assignee's principalId, which the user's index is built on) and, for a
 * user no longer there, as what the answer shows of them instead (their username and name, never contact
 * details: actions assigned now keep none, and those kept by earlier versions are not shown).
 */
export const storedActionSchema = z.object({
  ...z.omit(actionSchema, { actionUrl: true, targetUrl: true }).shape,
  /** Kept by earlier versions on each action; the object itself is read now (it may have moved or gone). */
  targetAncestorIds: z.optional(z.array(z.string())),
});
export type StoredAction = z.output<typeof storedActionSchema>;

/** A principal without their contact details (email, phone). */
export const withoutContact = (principal: Principal): Principal => ({
  ...principal,
  email: null,
  phone: null,
});

/** Spec §2.6 principals: contact details (email, phone) only for the user themselves and system administrators. */
export function principalSeenBy(viewer: Caller, principal: Principal): Principal {
  if (viewer.systemAdmin || viewer.principal.principalId === principal.principalId) return principal;
  return withoutContact(principal);
}

/** What an action names, as read for an answer (not as the action keeps it). */
export interface ActionNames {
  /** Its object, live and readable by the viewer. */
  target: Pick<Node, 'nodeId' | 'name' | 'nodeType' | 'referenceNumber' | 'parentId' | 'ancestorIds'>;
  /** The object's parent, if it was read (it is not when the viewer may not read it). */
  parent: Pick<Node, 'nodeId' | 'name' | 'nodeType'> | null | undefined;
  /** The current profiles of the users it names (assignee, sender), by principalId. */
  people: ReadonlyMap<string, Principal>;
}

/**
 * The action as `viewer` sees it, with links under `apiBase` (this installation's /api/v1 address), naming
 * what it is about as `now` has read it: the object's current name and reference number; its parent, to a viewer who may read it
 * (told by where the object sits), else null; the assignee's and sender's current profiles, contact details
 * only as principalSeenBy allows (a user no longer there: as the action keeps them, without contact details).
 */
export function actionSeenBy(
  action: StoredAction,
  viewer: Caller,
  apiBase: string,
  now: ActionNames,
): Action {
  const { targetAncestorIds: _placement, ...fields } = action;
  const { target, parent, people } = now;
  const person = (kept: Principal) => people.get(kept.principalId) ?? withoutContact(kept);
  return {
    ...fields,
    targetNode: nameElement(target),
    targetNodeSequenceNumber: target.referenceNumber ?? '',
    parent:
      parent && parent.nodeId === target.parentId && canReadParentOf(viewer, target)
        ? nameElement(parent)
        : null,
    actionUrl: `${apiBase}/admin/actions/${action.actionId}`,
    targetUrl: `${apiBase}/items/${action.targetNode.nodeId}`,
    sentBy: principalSeenBy(viewer, person(action.sentBy)),
    user: principalSeenBy(viewer, person(action.user)),
  };
}

export const createActionsPayloadSchema = z.strictObject({
  actionType: z.enum(ACTION_TYPES),
  targetNodeId: uuidSchema,
  users: z.array(uuidSchema).check(z.minLength(1), z.maxLength(100)),
  dueDate: calendarDateSchema,
  comment: z.optional(readableTextSchema(2000)),
  on: z.optional(z.enum(ACTION_TARGETS)),
});

export type CreateActionsPayload = z.infer<typeof createActionsPayloadSchema>;
/** Which of their actions a user asks for. */
export interface MyActionsQuery {
  status?: ActionStatus | undefined;
  dueBefore?: string | undefined;
  dueAfter?: string | undefined;
  pageSize?: number | undefined;
  currentPage?: number | undefined;
}
