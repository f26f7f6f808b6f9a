import * as z from 'zod/mini';
import { nodeIdSchema, uuidSchema } from './node-payloads.ts';
import { ROLES } from './permissions.ts';

export const grantPathSchema = z.strictObject({
  nodeId: nodeIdSchema,
  principalId: uuidSchema,
});
export const grantPayloadSchema = z.strictObject({ role: z.enum(ROLES) });
export const sessionPathSchema = z.strictObject({
  sessionId: uuidSchema,
});
