import * as z from 'zod/mini';

/** A file of the reference: a plain file name, never a path. */
export const docsFileSchema = z.strictObject({
  file: z.optional(z.string().check(z.regex(/^[\w][\w.-]*$/, 'must be a file name of the reference'))),
});
