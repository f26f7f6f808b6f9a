import * as z from 'zod/mini';

/** Spec §5: login body. */
export const loginPayloadSchema = z.strictObject({
  username: z.string().check(z.minLength(1), z.maxLength(128)),
  password: z.string().check(z.minLength(1), z.maxLength(1024)),
});
