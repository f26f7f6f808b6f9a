/** Actions (spec §2.6): tasks assigned to a user about an object, e.g. a training on a process. */
import * as z from 'zod/mini';
import { type Node, nameElementSchema } from './node.ts';
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
 * address, never from a request's Host), and it remembers where its object sits, so that an assignee who
 * can no longer read the object no longer sees the action.
 */
export const storedActionSchema = z.object({
  ...z.omit(actionSchema, { actionUrl: true, targetUrl: true }).shape,
  /** Kept by earlier versions on each action; the object itself is read now (it may have moved or gone). */
  targetAncestorIds: z.optional(z.array(z.string())),
});
export type StoredAction = z.output<typeof storedActionSchema>;

/** Spec §2.6 principals: contact details (email, phone) only for the user themselves and system administrators. */
export function principalSeenBy(viewer: Caller, principal: Principal): Principal {
  if (viewer.systemAdmin || viewer.principal.principalId === principal.principalId) return principal;
  return { ...principal, email: null, phone: null };
}

/**
 * The action as `viewer` sees it, with links under `apiBase` (this installation's /api/v1 address). Its
 * object's parent is named only to a viewer who may read it (told by where `target`, the object, sits).
 */
export function actionSeenBy(
  action: StoredAction,
  viewer: Caller,
  apiBase: string,
  target: Pick<Node, 'parentId' | 'ancestorIds'>,
): Action {
  const { targetAncestorIds: _placement, ...fields } = action;
  return {
    ...fields,
    parent: canReadParentOf(viewer, target) ? action.parent : null,
    actionUrl: `${apiBase}/admin/actions/${action.actionId}`,
    targetUrl: `${apiBase}/items/${action.targetNode.nodeId}`,
    sentBy: principalSeenBy(viewer, action.sentBy),
    user: principalSeenBy(viewer, action.user),
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
