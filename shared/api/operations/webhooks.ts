/** Webhooks: the change feed pushed to endpoints that administrators register (README "Webhooks"). */
import * as z from 'zod/mini';
import { uuidSchema } from '#shared/domain/schema-parts.ts';
import {
  DELIVERY_ID,
  DELIVERY_STATES,
  deliveriesPageSchema,
  deliveryViewSchema,
  webhookChangesSchema,
  webhookPayloadSchema,
  webhooksPageSchema,
  webhookViewSchema,
} from '#shared/domain/webhooks.ts';
import { API_PREFIX, authenticated, defineOperation, type OperationAccess, problem } from '../operation.ts';
import { cursorParam, positiveIntParam } from '../params.ts';

const WEBHOOKS = `${API_PREFIX}/webhooks`;
const webhookPathSchema = z.strictObject({ webhookId: uuidSchema });
const deliveryPathSchema = z.strictObject({
  webhookId: uuidSchema,
  deliveryId: z.string().check(z.regex(DELIVERY_ID, 'must be a deliveryId from the delivery log')),
});
const NOT_ADMIN = problem('Needs the system administrator, or the environment admin role on the scope');
const NO_WEBHOOK = problem('No such webhook (or not one the caller manages)');
/** Managing endpoints writes the table; replaying queues an attempt. */
const managing: OperationAccess = authenticated('readWrite');
const replaying: OperationAccess = { ...authenticated('readWrite'), sendsTo: ['webhookDeliveries'] };

export const createWebhook = defineOperation({
  name: 'createWebhook',
  handler: 'functions/webhooks/create-webhook.ts',
  routes: [{ method: 'POST', path: WEBHOOKS }],
  access: managing,
  summary: 'Register a webhook endpoint',
  description:
    'Every change the feed records (node.created, node.updated, node.published, node.deleted, edge.*, ' +
    'relation.*, grant.*, …) under the scope (an environment or folder; none: the whole library, system ' +
    'administrators only) is POSTed to `url` as `{ type, timestamp, data: <Change> }`, signed per the ' +
    'Standard Webhooks specification with the `secret` of the answer (shown now only). https only, to ' +
    'public addresses; failed deliveries are retried over about 4 h 43 min, then parked.',
  tag: 'Common',
  request: { body: webhookPayloadSchema },
  responses: {
    201: { description: 'The endpoint, with its signing secret', body: webhookViewSchema },
    403: NOT_ADMIN,
    404: problem('No such scope'),
  },
});

export const listWebhooks = defineOperation({
  name: 'listWebhooks',
  handler: 'functions/webhooks/list-webhooks.ts',
  routes: [{ method: 'GET', path: WEBHOOKS }],
  access: authenticated('read'),
  summary: 'The webhook endpoints the caller manages',
  description:
    'All of them in one answer, oldest first: the list has no paging, so it takes no query parameter ' +
    '(`pageSize`, `cursor` or any other is a 400 naming it).',
  tag: 'Common',
  request: {},
  responses: { 200: { description: 'The endpoints, oldest first', body: webhooksPageSchema } },
});

export const getWebhook = defineOperation({
  name: 'getWebhook',
  handler: 'functions/webhooks/get-webhook.ts',
  routes: [{ method: 'GET', path: `${WEBHOOKS}/{webhookId}` }],
  access: authenticated('read'),
  summary: 'A webhook endpoint',
  tag: 'Common',
  request: { path: webhookPathSchema },
  responses: { 200: { description: 'The endpoint', body: webhookViewSchema }, 404: NO_WEBHOOK },
});

export const updateWebhook = defineOperation({
  name: 'updateWebhook',
  handler: 'functions/webhooks/update-webhook.ts',
  routes: [{ method: 'PATCH', path: `${WEBHOOKS}/{webhookId}` }],
  access: managing,
  summary: 'Change a webhook endpoint',
  description:
    'The fields given change (`enabled: false` pauses deliveries: they are parked); its scope stays.',
  tag: 'Common',
  request: { path: webhookPathSchema, body: webhookChangesSchema },
  responses: {
    200: { description: 'The endpoint', body: webhookViewSchema },
    404: NO_WEBHOOK,
    409: problem('WRITE_CONFLICT: changed meanwhile'),
  },
});

export const deleteWebhook = defineOperation({
  name: 'deleteWebhook',
  handler: 'functions/webhooks/delete-webhook.ts',
  routes: [{ method: 'DELETE', path: `${WEBHOOKS}/{webhookId}` }],
  access: managing,
  summary: 'Delete a webhook endpoint',
  description:
    'Nothing more is sent to it; its delivery log stays readable until it expires, not through the API.',
  tag: 'Common',
  request: { path: webhookPathSchema, bodyOptional: true },
  responses: { 204: { description: 'Deleted' }, 404: NO_WEBHOOK },
});

export const rotateWebhookSecret = defineOperation({
  name: 'rotateWebhookSecret',
  handler: 'functions/webhooks/rotate-webhook-secret.ts',
  routes: [{ method: 'POST', path: `${WEBHOOKS}/{webhookId}/secret` }],
  access: managing,
  summary: 'Give a webhook endpoint a new signing secret',
  description:
    'The new secret is in the answer (shown now only). For 24 hours messages carry a signature with each ' +
    'secret, so the receiver can switch over without a gap.',
  tag: 'Common',
  request: { path: webhookPathSchema, bodyOptional: true },
  responses: {
    200: { description: 'The endpoint, with its new secret', body: webhookViewSchema },
    404: NO_WEBHOOK,
    409: problem('WRITE_CONFLICT: changed meanwhile'),
  },
});

export const listWebhookDeliveries = defineOperation({
  name: 'listWebhookDeliveries',
  handler: 'functions/webhooks/list-webhook-deliveries.ts',
  routes: [{ method: 'GET', path: `${WEBHOOKS}/{webhookId}/deliveries` }],
  access: authenticated('read'),
  summary: 'The delivery log of a webhook endpoint',
  description:
    'Newest first, with each delivery’s state (pending, retrying, delivered, parked), its attempts (status, ' +
    'error, time taken, the start of the answer) and the message sent. `state` narrows it (a page so narrowed ' +
    'may hold fewer than pageSize, even none, while `nextCursor` says more follow); pages go on with ' +
    '`nextCursor` as `cursor`. Deliveries are kept 30 days.',
  tag: 'Common',
  request: {
    path: webhookPathSchema,
    query: z.strictObject({
      state: z.optional(z.enum(DELIVERY_STATES)),
      pageSize: z.optional(positiveIntParam(200)),
      cursor: z.optional(cursorParam),
    }),
  },
  responses: { 200: { description: 'A page of deliveries', body: deliveriesPageSchema }, 404: NO_WEBHOOK },
});

export const replayWebhookDelivery = defineOperation({
  name: 'replayWebhookDelivery',
  handler: 'functions/webhooks/replay-webhook-delivery.ts',
  routes: [{ method: 'POST', path: `${WEBHOOKS}/{webhookId}/deliveries/{deliveryId}/replay` }],
  access: replaying,
  summary: 'Send a delivered or parked delivery again',
  description: 'From its first attempt, with the same `webhook-id`; its log is kept.',
  tag: 'Common',
  request: { path: deliveryPathSchema, bodyOptional: true },
  responses: {
    202: { description: 'Queued again', body: deliveryViewSchema },
    404: problem('No such webhook or delivery'),
    409: problem('DELIVERY_IN_PROGRESS: still being attempted'),
  },
});
