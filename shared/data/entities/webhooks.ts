/**
 * Webhook endpoints and their deliveries as stored.
 * How items of the single table are described: ../entity.ts; which key serves which query: ../table-schema.ts.
 */
import * as z from 'zod/mini';
import { deliverySchema, webhookSchema } from '#shared/domain/webhooks.ts';
import { defineEntity } from '../entity.ts';
import { deliveryKey, webhookKey } from '../keys.ts';

/** A webhook endpoint (all of them in one partition: see keys.ts). */
export const webhooks = defineEntity({
  name: 'Webhook',
  schema: webhookSchema,
  keys: (webhook) => webhookKey(webhook.webhookId),
});

/**
 * One change for one webhook, with its attempts; expires with the feed's changes. `claimedUntil` marks an
 * attempt in progress (a repeated queue message finds it taken).
 */
export const deliveries = defineEntity({
  name: 'WebhookDelivery',
  // expiresAtEpoch is the table's TTL attribute (table-schema.ts).
  schema: z.object({
    ...deliverySchema.shape,
    expiresAtEpoch: z.number(),
    claimedUntil: z._default(z.number(), 0),
  }),
  keys: (delivery) => deliveryKey(delivery.webhookId, delivery.deliveryId),
});

export type StoredDelivery = ReturnType<typeof deliveries.fromItem>;
