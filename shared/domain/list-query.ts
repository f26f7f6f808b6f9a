/** Query parameters of the lists (GET /list, /list/{nodeId} and the per-type lists). */
import * as z from 'zod/mini';
import { nodeIdSchema } from './node-payloads.ts';
import { NODE_TYPE_NAMES } from './node-types.ts';

const positiveInt = (max: number) =>
  z.string().check(
    z.regex(/^[1-9]\d*$/, 'must be a positive integer'),
    z.refine((s) => Number(s) <= max, { message: `must be at most ${max}`, params: { rule: 'maximum' } }),
  );

export const MAX_PAGE_SIZE = 1000;
export const DEFAULT_PAGE_SIZE = 50;
/** Offset paging reads every entry before the page; deeper than this, walk with the cursor. */
export const MAX_OFFSET = 100_000;

export const SORT_KEYS = ['nodeId', 'name', 'creationDate', 'modificationDate'] as const;
/**
 * `nodeType` may repeat (`?nodeType=ROLE&nodeType=ASSET`); the gateway joins repeats with commas. A pattern
 * (not a refinement) so the reference shows the allowed values.
 */
const oneNodeType = `(?:${NODE_TYPE_NAMES.join('|')})`;
const nodeTypeList = z.string().check(
  z.regex(new RegExp(`^${oneNodeType}(?:,${oneNodeType})*$`), {
    message: `each value must be one of ${NODE_TYPE_NAMES.join(', ')}`,
  }),
);

export const listQuerySchema = z.strictObject({
  pageSize: z.optional(positiveInt(MAX_PAGE_SIZE)),
  currentPage: z.optional(positiveInt(1_000_000)),
  sortKey: z.optional(z.enum(SORT_KEYS)),
  order: z.optional(z.enum(['ASC', 'DESC'])),
  nodeType: z.optional(nodeTypeList),
  nodeStatus: z.optional(z.enum(['IN_PROGRESS', 'PUBLISHED'])),
  name: z.optional(z.string().check(z.minLength(1), z.maxLength(200))),
  modifiedSince: z.optional(z.iso.datetime({ offset: true })),
  cursor: z.optional(z.string().check(z.minLength(1), z.maxLength(2000))),
  draft: z.optional(z.enum(['true', 'false'])),
});

export type ListQuery = z.infer<typeof listQuerySchema>;

/** GET /list/{nodeId}: the object whose children are listed. */
export const listPathSchema = z.strictObject({ nodeId: z.optional(nodeIdSchema) });
