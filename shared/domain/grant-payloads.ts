import * as z from 'zod/mini';
import { nodeIdSchema } from './node-payloads.ts';
import { ROLES } from './permissions.ts';

export const grantPathSchema = z.strictObject({
  nodeId: nodeIdSchema,
  principalId: z.string().check(z.minLength(1), z.maxLength(64)),
});
export const grantPayloadSchema = z.strictObject({ role: z.enum(ROLES) });
export const sessionPathSchema = z.strictObject({
  sessionId: z.string().check(z.minLength(1), z.maxLength(64)),
});
