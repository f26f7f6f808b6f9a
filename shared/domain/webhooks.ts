/**
 * Webhooks: the change feed pushed to endpoints that administrators register, signed as the Standard
 * Webhooks specification says (README "Webhooks"). Each delivery is one change, as the feed has it, in a
 * `{ type, timestamp, data }` message; deliveries are at least once and in no guaranteed order (a
 * receiver skips a `webhook-id` it has seen and applies a change only if its version is newer).
 */
import * as z from 'zod/mini';
import { CHANGE_RETENTION_DAYS, type Change, type ChangeKind } from './changes.ts';
import { listPageOf } from './list-element.ts';
import { named, readableTextSchema, timestampSchema, urlTextSchema, uuidSchema } from './schema-parts.ts';

/** The event type of each kind of change (REMOVED is a reader's view of the feed, never an event). */
export const EVENT_TYPES = {
  CREATED: 'node.created',
  UPDATED: 'node.updated',
  MOVED: 'node.moved',
  PUBLISHED: 'node.published',
  DELETED: 'node.deleted',
  RESTORED: 'node.restored',
  PURGED: 'node.purged',
  EDGE_ADDED: 'edge.added',
  EDGE_CHANGED: 'edge.changed',
  EDGE_REMOVED: 'edge.removed',
  RELATION_LINKED: 'relation.linked',
  RELATION_CHANGED: 'relation.changed',
  RELATION_UNLINKED: 'relation.unlinked',
  GRANTED: 'grant.created',
  GRANT_CHANGED: 'grant.changed',
  REVOKED: 'grant.revoked',
} as const satisfies Partial<Record<ChangeKind, string>>;
export type EventType = (typeof EVENT_TYPES)[keyof typeof EVENT_TYPES];
export const ALL_EVENT_TYPES = Object.values(EVENT_TYPES) as EventType[];

/** What an endpoint subscribes to: `*`, a group (`node.*`), or one type. */
const EVENT_FILTERS = [
  '*',
  ...new Set(ALL_EVENT_TYPES.map((type) => `${type.split('.')[0]}.*`)),
  ...ALL_EVENT_TYPES,
];

export const eventTypeOf = (kind: ChangeKind): EventType | undefined =>
  Object.hasOwn(EVENT_TYPES, kind) ? EVENT_TYPES[kind as keyof typeof EVENT_TYPES] : undefined;

/** Whether an endpoint subscribed to `filters` receives events of `type`. */
export function subscribed(filters: readonly string[], type: EventType): boolean {
  const group = `${type.split('.')[0]}.*`;
  return filters.some((filter) => filter === '*' || filter === type || filter === group);
}

/**
 * How long a failed delivery waits before its next attempt: after the first failure 5 s, then 30 s,
 * 2 min, 10 min, 30 min, 1 h and 3 h. Eight attempts over about 4 h 43 min; a delivery that fails them
 * all is parked (its log kept, replayable by an administrator).
 */
export const RETRY_DELAYS_SECONDS = [5, 30, 120, 600, 1800, 3600, 10_800] as const;

/** Attempts kept in a delivery's log (the newest). */
export const DELIVERY_LOG_LENGTH = 20;
/** How much of an endpoint's answer the log keeps. */
export const RESPONSE_EXCERPT_BYTES = 1024;
/** How long one attempt may take, connecting and answering. */
export const ATTEMPT_TIMEOUT_MS = 10_000;
/** How long a rotated-out secret still signs beside the new one, so receivers can switch over. */
export const SECRET_OVERLAP_HOURS = 24;
/** Deliveries are kept as long as the feed keeps changes. */
export const DELIVERY_RETENTION_DAYS = CHANGE_RETENTION_DAYS;

/** What an endpoint is, as stored and as shown (less its secrets). */
const endpointFields = {
  webhookId: z.string(),
  url: z.string(),
  description: z.nullable(z.string()),
  events: z.array(z.string()),
  nodeTypes: z.nullable(z.array(z.string())),
  /** Only changes at or under this environment or folder; null: the whole library (system admins). */
  scopeNodeId: z.nullable(z.string()),
  enabled: z.boolean(),
  createdBy: z.string(),
  /** Deliveries parked in a row (reset by the next delivery that succeeds). */
  consecutiveFailures: z.number(),
};

/** An endpoint as stored. */
export const webhookSchema = z.object({
  ...endpointFields,
  /** `whsec_…` (Standard Webhooks); the one before a rotation signs too until `previousSecretUntil`. */
  secret: z.string(),
  previousSecret: z.nullable(z.string()),
  previousSecretUntil: z.nullable(z.string()),
  createdAt: z.string(),
  modifiedAt: z.string(),
});
export type Webhook = z.output<typeof webhookSchema>;

export const DELIVERY_STATES = ['pending', 'retrying', 'delivered', 'parked'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

const attemptFields = {
  at: z.string(),
  /** The endpoint's status; null when none came (refused, unreachable, timed out). */
  status: z.nullable(z.number()),
  error: z.nullable(z.string()),
  durationMs: z.number(),
  /** The start of the endpoint's answer. */
  response: z.nullable(z.string()),
};
const attemptSchema = z.object(attemptFields);
export type DeliveryAttempt = z.output<typeof attemptSchema>;

/** What a delivery is, as stored and as shown (less its message, stored as sent). */
const deliveryFields = {
  webhookId: z.string(),
  /** Where it sorts in the endpoint's log: the change's feed position. */
  deliveryId: z.string(),
  /** The `webhook-id` header: the change's id, the same on every attempt and replay. */
  messageId: z.string(),
  type: z.string(),
  state: z.enum(DELIVERY_STATES),
  /** Attempts since it was made or last replayed; the queue message of an attempt carries this number. */
  attempts: z.number(),
  nextAttemptAt: z.nullable(z.string()),
  createdAt: z.string(),
  deliveredAt: z.nullable(z.string()),
  parkedAt: z.nullable(z.string()),
};

/** One change for one endpoint, and what became of it. */
export const deliverySchema = z.object({
  ...deliveryFields,
  /** The message as sent (JSON). */
  payload: z.string(),
  log: z.array(attemptSchema),
});
export type Delivery = z.output<typeof deliverySchema>;

/**
 * A delivery's id: its change's recording time and id, so an endpoint's log sorts by the feed's order,
 * and safe in a URL path as it stands.
 */
export const deliveryIdOf = (change: Pick<Change, 'recordedAt' | 'changeId'>) =>
  `${change.recordedAt}_${change.changeId}`;
export const DELIVERY_ID = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z_[A-Za-z0-9._-]{1,200}$/;

/** The message a delivery sends (Standard Webhooks' recommended shape). */
export function messageOf(change: Change, type: EventType): string {
  return JSON.stringify({ type, timestamp: change.recordedAt, data: change });
}

/** The delay before the attempt after `failedAttempts` failures; undefined once they are all used. */
export function retryDelaySeconds(
  failedAttempts: number,
  schedule: readonly number[] = RETRY_DELAYS_SECONDS,
): number | undefined {
  return schedule[failedAttempts - 1];
}

// The API's view of endpoints and deliveries.

const urlField = urlTextSchema(2048);
const eventsField = z
  .array(z.enum(EVENT_FILTERS as [string, ...string[]]))
  .check(z.minLength(1), z.maxLength(EVENT_FILTERS.length));
const nodeTypesField = z.nullable(
  z
    .array(z.string().check(z.regex(/^[A-Z_]{1,64}$/, 'must be a nodeType')))
    .check(z.minLength(1), z.maxLength(50)),
);
const descriptionField = z.nullable(readableTextSchema(500));

/** Registering an endpoint. */
export const webhookPayloadSchema = named(
  z.strictObject({
    url: urlField,
    description: z.optional(descriptionField),
    /** Default: every event. */
    events: z.optional(eventsField),
    /** Only changes of these node types; default: all. */
    nodeTypes: z.optional(nodeTypesField),
    /** An environment or folder the caller administers; absent or null: the whole library (system admins). */
    scopeNodeId: z.optional(z.nullable(uuidSchema)),
    enabled: z.optional(z.boolean()),
  }),
  'WebhookPayload',
);
export type WebhookPayload = z.output<typeof webhookPayloadSchema>;

/** Changing an endpoint: the fields given change, the others stay (its scope stays). */
export const webhookChangesSchema = named(
  z.strictObject({
    url: z.optional(urlField),
    description: z.optional(descriptionField),
    events: z.optional(eventsField),
    nodeTypes: z.optional(nodeTypesField),
    enabled: z.optional(z.boolean()),
  }),
  'WebhookChanges',
);
export type WebhookChanges = z.output<typeof webhookChangesSchema>;

export const webhookViewSchema = named(
  z.strictObject({
    '@type': z.literal('Webhook'),
    ...endpointFields,
    createdAt: timestampSchema,
    modifiedAt: timestampSchema,
    /** Only when the endpoint is made and when its secret is rotated: keep it, it is not shown again. */
    secret: z.optional(z.string()),
  }),
  'Webhook',
);
export type WebhookView = z.output<typeof webhookViewSchema>;

export const webhookView = (webhook: Webhook, showSecret = false): WebhookView => ({
  '@type': 'Webhook',
  webhookId: webhook.webhookId,
  url: webhook.url,
  description: webhook.description,
  events: webhook.events,
  nodeTypes: webhook.nodeTypes,
  scopeNodeId: webhook.scopeNodeId,
  enabled: webhook.enabled,
  createdBy: webhook.createdBy,
  createdAt: webhook.createdAt,
  modifiedAt: webhook.modifiedAt,
  consecutiveFailures: webhook.consecutiveFailures,
  ...(showSecret ? { secret: webhook.secret } : {}),
});

export const webhooksPageSchema = named(
  z.strictObject({ results: z.array(webhookViewSchema) }),
  'WebhooksPage',
);

export const deliveryViewSchema = named(
  z.strictObject({
    '@type': z.literal('WebhookDelivery'),
    ...deliveryFields,
    /** The newest attempts, oldest first. */
    log: z.array(z.strictObject(attemptFields)),
    /** The message as sent. */
    payload: z.unknown(),
  }),
  'WebhookDelivery',
);
export type DeliveryView = z.output<typeof deliveryViewSchema>;

export const deliveryView = (delivery: Delivery): DeliveryView => ({
  '@type': 'WebhookDelivery',
  webhookId: delivery.webhookId,
  deliveryId: delivery.deliveryId,
  messageId: delivery.messageId,
  type: delivery.type,
  state: delivery.state,
  attempts: delivery.attempts,
  nextAttemptAt: delivery.nextAttemptAt,
  createdAt: delivery.createdAt,
  deliveredAt: delivery.deliveredAt,
  parkedAt: delivery.parkedAt,
  log: delivery.log,
  payload: JSON.parse(delivery.payload),
});

export const deliveriesPageSchema = named(listPageOf(deliveryViewSchema), 'WebhookDeliveriesPage');
