/**
 * Requests sent with an Idempotency-Key, as stored.
 * How items of the single table are described: ../entity.ts; which key serves which query: ../table-schema.ts.
 */
import * as z from 'zod/mini';
import { defineEntity } from '../entity.ts';
import { idempotencyKey } from '../keys.ts';

/**
 * A request sent with an Idempotency-Key: written in the same transaction as the writes that complete the
 * request (so they happen once), then given the answer to replay; DynamoDB removes it after 24 hours.
 */
export const idempotentRequests = defineEntity({
  name: 'IdempotentRequest',
  schema: z.object({
    fingerprint: z.string(),
    committedAt: z.string(),
    expiresAtEpoch: z.number(),
    answer: z.optional(
      z.object({ statusCode: z.number(), headers: z.record(z.string(), z.string()), body: z.string() }),
    ),
  }),
  keys: (_request, principalId: string, key: string) => idempotencyKey(principalId, key),
});
