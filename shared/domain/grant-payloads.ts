import * as z from 'zod/mini';
import { ROLES } from './permissions.ts';

export const grantPayloadSchema = z.strictObject({ role: z.enum(ROLES) });
