/** The lists: everything readable, a node's children, and the per-type lists of spec §4.7. */
import * as z from 'zod/mini';
import { analyzerPageSchema, maturityPageSchema } from '#shared/domain/governance.ts';
import { listPageSchema } from '#shared/domain/list-element.ts';
import { MAX_PAGE_SIZE, SORT_KEYS } from '#shared/domain/list-query.ts';
import { NODE_TYPE_NAMES } from '#shared/domain/node-types.ts';
import { RELATION_NAMES, RESPONSIBILITY_KINDS } from '#shared/domain/relations.ts';
import { uuidSchema } from '#shared/domain/schema-parts.ts';
import { TYPED_LISTS } from '#shared/domain/typed-lists.ts';
import { API_PREFIX, authenticated, defineOperation, problem } from '../operation.ts';
import { booleanParam, cursorParam, lowerBoundTimeParam, positiveIntParam } from '../params.ts';

/**
 * `nodeType` may repeat (`?nodeType=ROLE&nodeType=ASSET`); the gateway joins repeats with commas. A pattern
 * (not a refinement) so the reference shows the allowed values.
 */
const oneNodeType = `(?:${NODE_TYPE_NAMES.join('|')})`;
const nodeTypeList = z.pipe(
  z.string().check(
    z.regex(new RegExp(`^${oneNodeType}(?:,${oneNodeType})*$`), {
      message: `each value must be one of ${NODE_TYPE_NAMES.join(', ')}`,
    }),
  ),
  z.transform((list) => [...new Set(list.split(','))]),
);

/** The maturity list (one row per facet) takes paging only. */
const pagingQuerySchema = z.strictObject({
  pageSize: z.optional(positiveIntParam(MAX_PAGE_SIZE)),
  currentPage: z.optional(positiveIntParam(1_000_000)),
  cursor: z.optional(cursorParam),
});

const listQuerySchema = z.strictObject({
  pageSize: z.optional(positiveIntParam(MAX_PAGE_SIZE)),
  currentPage: z.optional(positiveIntParam(1_000_000)),
  sortKey: z.optional(z.enum(SORT_KEYS)),
  order: z.optional(z.enum(['ASC', 'DESC'])),
  nodeType: z.optional(nodeTypeList),
  nodeStatus: z.optional(z.enum(['IN_PROGRESS', 'PUBLISHED'])),
  name: z.optional(
    z.pipe(
      z.string().check(z.minLength(1), z.maxLength(200)),
      z.transform((s) => s.toLowerCase()),
    ),
  ),
  modifiedSince: z.optional(lowerBoundTimeParam),
  cursor: z.optional(cursorParam),
  draft: z.optional(booleanParam),
  relatedTo: z.optional(uuidSchema),
  relation: z.optional(z.enum(RELATION_NAMES as [string, ...string[]])),
  responsibility: z.optional(z.enum(['any', ...RESPONSIBILITY_KINDS])),
});

const camel = (path: string) =>
  path.replace(/\/list$|-list$/, '').replace(/[/-](\w)/g, (_, c: string) => c.toUpperCase());

export const listNodes = defineOperation({
  name: 'listNodes',
  handler: 'functions/lists/list-nodes.ts',
  routes: [
    { method: 'GET', path: `${API_PREFIX}/list` },
    {
      method: 'GET',
      path: `${API_PREFIX}/list/{nodeId}`,
      id: 'listChildren',
      summary: 'List the children of an object',
    },
    ...TYPED_LISTS.map((typed) => ({
      method: 'GET' as const,
      path: `${API_PREFIX}${typed.path}`,
      id: `list${camel(typed.path)}`,
      tag: typed.tag,
      summary: `List ${typed.label}`,
      ...(typed.kind === 'maturity' ? { query: pagingQuerySchema } : {}),
    })),
  ],
  access: authenticated('read'),
  summary: 'List objects',
  description: [
    '`GET /list`: every object the caller may read; `GET /list/{nodeId}`: the children of one object; the ' +
      'per-type paths: the items of one facet (for example `/process/list`: processes). Deleted objects are ' +
      'never listed.',
    '',
    '**Paging.** `pageSize` (default 50, at most 1000) and `currentPage` (from 1), or walk with `cursor`: ' +
      'pass each page’s `nextCursor` (null on the last page) to get the next one. A cursor resumes after the ' +
      'last object, so objects created or deleted during a walk do not shift it: each object that exists ' +
      'throughout the walk is returned exactly once. A page by number reads every index entry before it: ' +
      'use the cursor to go deep (currentPage may start at most 100000 objects in).',
    '',
    '**Sorting.** `sortKey` nodeId (default), name (case-insensitive), creationDate or modificationDate; ' +
      '`order` ASC (default) or DESC; ties are broken by nodeId.',
    '',
    '**Filters.** `nodeType` (repeatable, or comma-separated; on a per-type list, some of its types), ' +
      '`nodeStatus`, `name` (case-insensitive, contained in the name), `modifiedSince` (ISO 8601, at or ' +
      'after; with sortKey=modificationDate it is a range read, the way for sync clients), `draft=false` ' +
      '(only published objects, as published).',
    '',
    '**Relations.** `relatedTo=<nodeId>`: the objects related to that object, either direction (`relation` ' +
      'narrows it to one relation); `responsibility=any` or one of the seven kinds: the objects on which the ' +
      'caller holds a responsibility, directly or through a role they hold. These read the relations first ' +
      '(their cost follows the number of related objects, not the size of the library) and total exactly.',
    '',
    '**Totals.** `totalRecords` comes from counts the service keeps, never from counting. With a `name`, ' +
      '`modifiedSince` or `draft=false` filter, or on the analyzer list, no count is kept: `totalRecords` is ' +
      'then the number without that filter and `totalRecordsExact` is false, unless the page reaches the ' +
      'end of the list.',
    '',
    '**Governance.** `/governance/overview-list`: every governed object (the content items of all facets). ' +
      '`/governance/analyzer-list`: governed objects that need attention, each with `findings` ' +
      '(NEVER_PUBLISHED, UNPUBLISHED_CHANGES, NO_DESCRIPTION). `/governance/maturity-list`: one row per ' +
      'facet with its governed objects by status (paging parameters only).',
  ].join('\n'),
  tag: 'Common',
  request: {
    path: z.strictObject({ nodeId: z.optional(uuidSchema) }),
    query: listQuerySchema,
    repeatableQuery: ['nodeType'],
  },
  responses: {
    200: {
      description: 'A list page (analyzer and maturity lists: their own elements)',
      body: z.union([listPageSchema, analyzerPageSchema, maturityPageSchema]),
    },
    400: problem('Unknown or invalid query parameters, or a cursor of another query'),
    404: problem('GET /list/{nodeId}: no such object (or not visible to the caller)'),
  },
});
