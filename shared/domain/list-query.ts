/** Query parameters of GET /list in this version: the environments of the library, paged. */
import * as z from 'zod/mini';

const positiveInt = (max: number) =>
  z.string().check(
    z.regex(/^[1-9]\d*$/, 'must be a positive integer'),
    z.refine((s) => Number(s) <= max, { message: `must be at most ${max}`, params: { rule: 'maximum' } }),
  );

export const MAX_PAGE_SIZE = 1000;
export const DEFAULT_PAGE_SIZE = 50;

export const listQuerySchema = z.strictObject({
  nodeType: z.literal('ENVIRONMENT', {
    error: 'this version lists environments only: nodeType=ENVIRONMENT is required',
  }),
  pageSize: z.optional(positiveInt(MAX_PAGE_SIZE)),
  currentPage: z.optional(positiveInt(1_000_000)),
  draft: z.optional(z.enum(['true', 'false'])),
});

export type ListQuery = z.infer<typeof listQuerySchema>;
