/** Schemas of the user administration requests. */
import * as z from 'zod/mini';
import { objectNameSchema, readableTextSchema } from './schema-parts.ts';

export const MIN_PASSWORD_LENGTH = 12;

const password = z.string().check(z.minLength(MIN_PASSWORD_LENGTH), z.maxLength(1024));
const optionalText = (max: number) => z.optional(z.nullable(readableTextSchema(max)));
const profile = {
  name: z.optional(objectNameSchema(200)),
  firstName: optionalText(100),
  middleName: optionalText(100),
  lastName: optionalText(100),
  phone: optionalText(50),
  email: z.optional(z.nullable(z.email())),
};

export const createUserPayloadSchema = z.strictObject({
  username: z
    .string()
    .check(z.regex(/^[A-Za-z0-9][A-Za-z0-9._@-]{2,63}$/, 'must be 3–64 letters, digits, . _ @ or -')),
  password,
  systemAdmin: z.optional(z.boolean()),
  ...profile,
});

/** Only the fields sent change. */
export const updateUserPayloadSchema = z.strictObject({
  ...profile,
  systemAdmin: z.optional(z.boolean()),
  status: z.optional(z.enum(['ACTIVE', 'DISABLED'])),
  /** A new password set by the administrator; the user's sessions end. */
  password: z.optional(password),
});

export const changePasswordPayloadSchema = z.strictObject({
  oldPassword: z.string().check(z.minLength(1)),
  newPassword: password,
});

export type CreateUserPayload = z.infer<typeof createUserPayloadSchema>;
export type UpdateUserPayload = z.infer<typeof updateUserPayloadSchema>;
