/** Actions (spec §2.6, §4.8): tasks assigned to users about objects. */
import * as z from 'zod/mini';
import {
  actionSchema,
  actionsPageSchema,
  actionsSchema,
  createActionsPayloadSchema,
} from '#shared/domain/action.ts';
import { calendarDateSchema, uuidSchema } from '#shared/domain/schema-parts.ts';
import { REQUEST_EXAMPLES } from '../examples.ts';
import { API_PREFIX, authenticated, defineOperation, problem } from '../operation.ts';
import { pageQuerySchema } from '../params.ts';

const actionPathSchema = z.strictObject({ actionId: uuidSchema });

export const createActions = defineOperation({
  name: 'createActions',
  handler: 'functions/actions/create-actions.ts',
  routes: [{ method: 'POST', path: `${API_PREFIX}/admin/actions` }],
  access: authenticated('readWrite'),
  summary: 'Assign an action on an object to users',
  description:
    'One action per user (e.g. TRAINING on a process), due on `dueDate`. Needs the right to publish the object ' +
    '(environment admins and system administrators); each user must be able to read the object, and an ' +
    'environment admin assigns users of their environment only. `sentBy` is the caller.',
  tag: 'Action',
  request: { body: createActionsPayloadSchema, examples: REQUEST_EXAMPLES.createActions },
  responses: {
    201: { description: 'The actions, one per user in request order', body: actionsSchema },
    403: problem('Not allowed to publish the object, or a cookie request from another site'),
    404: problem('No such object'),
  },
});

export const getAction = defineOperation({
  name: 'getAction',
  handler: 'functions/actions/get-action.ts',
  routes: [{ method: 'GET', path: `${API_PREFIX}/admin/actions/{actionId}` }],
  access: authenticated('read'),
  summary: 'One action',
  description:
    'For its assignee, its sender, those who may publish its object, and system administrators. It names its ' +
    'object, the object’s parent, its assignee and its sender as they are now (a rename or a changed profile ' +
    'shows at once).',
  tag: 'Action',
  request: { path: actionPathSchema },
  responses: {
    200: { description: 'The action', body: actionSchema },
    400: problem('Malformed action id'),
    404: problem('No such action (or not visible to the caller)'),
  },
});

export const myActions = defineOperation({
  name: 'myActions',
  handler: 'functions/actions/my-actions.ts',
  routes: [{ method: 'GET', path: `${API_PREFIX}/users/me/actions` }],
  access: authenticated('read'),
  summary: 'Your actions',
  description:
    'Only the caller’s own actions (an administrator cannot read another user’s here), by due date; filter by ' +
    '`status` (OPEN, DONE) and `dueBefore` / `dueAfter` (inclusive dates).',
  tag: 'Action',
  request: {
    query: z.strictObject({
      ...pageQuerySchema.shape,
      status: z.optional(z.enum(['OPEN', 'DONE'])),
      dueBefore: z.optional(calendarDateSchema),
      dueAfter: z.optional(calendarDateSchema),
    }),
  },
  responses: {
    200: { description: 'A page of actions', body: actionsPageSchema },
    400: problem('Invalid filter or paging parameter'),
  },
});

export const completeAction = defineOperation({
  name: 'completeAction',
  handler: 'functions/actions/complete-action.ts',
  routes: [{ method: 'POST', path: `${API_PREFIX}/users/me/actions/{actionId}/done` }],
  access: authenticated('readWrite'),
  summary: 'Mark your action done',
  tag: 'Action',
  request: { path: actionPathSchema },
  responses: {
    200: { description: 'The action, now DONE', body: actionSchema },
    400: problem('Malformed action id'),
    404: problem('No such action of yours'),
    409: problem('ACTION_DONE: already done'),
  },
});
