import * as z from 'zod/mini';
import { named } from '#shared/domain/schema-parts.ts';

/** Spec §5: login body. */
export const loginPayloadSchema = named(
  z.strictObject({
    username: z.string().check(z.minLength(1), z.maxLength(128)),
    password: z.string().check(z.minLength(1), z.maxLength(1024)),
  }),
  'LoginPayload',
);
