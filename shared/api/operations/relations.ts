/** Relations between objects, RACI responsibilities and the roles users hold (relations.ts: the catalogue). */
import * as z from 'zod/mini';
import { listPageOf } from '#shared/domain/list-element.ts';
import { RELATION_CATALOGUE, RELATION_NAMES, relationViewSchema } from '#shared/domain/relations.ts';
import { named, uuidSchema } from '#shared/domain/schema-parts.ts';
import { API_PREFIX, authenticated, defineOperation, problem } from '../operation.ts';
import { cursorQuerySchema, nodePathSchema } from '../params.ts';

const relationNameSchema = z.enum(RELATION_NAMES as [string, ...string[]]);
const relationPathSchema = z.strictObject({
  nodeId: uuidSchema,
  relation: relationNameSchema,
  /** A nodeId, or a user's principalId for relations that take users. */
  targetId: uuidSchema,
});
const relationsPageSchema = named(listPageOf(relationViewSchema), 'RelationsPage');

const CATALOGUE_TEXT = RELATION_CATALOGUE.map(
  (d) => `\`${d.relation}\`: ${d.from.join(', ')} → ${d.to.join(', ')}`,
).join('; ');

export const listRelations = defineOperation({
  name: 'listRelations',
  handler: 'functions/relations/list-relations.ts',
  routes: [{ method: 'GET', path: `${API_PREFIX}/items/{nodeId}/relations` }],
  access: authenticated('read'),
  summary: 'An object’s relations, both directions',
  description:
    'Relations whose other end is live and readable by the caller, by direction (in, out), relation and other ' +
    'end; `direction` and `relation` narrow the list. Walked like /list: `pageSize`, then `nextCursor` as ' +
    '`cursor` (a page can be short where ends are not readable).',
  tag: 'Common',
  request: {
    path: nodePathSchema,
    query: z.extend(cursorQuerySchema, {
      direction: z.optional(z.enum(['out', 'in'])),
      relation: z.optional(relationNameSchema),
    }),
  },
  responses: {
    200: { description: 'A page of relations', body: relationsPageSchema },
    404: problem('No such object'),
  },
});

export const linkRelation = defineOperation({
  name: 'linkRelation',
  handler: 'functions/relations/link-relation.ts',
  routes: [{ method: 'PUT', path: `${API_PREFIX}/items/{nodeId}/relations/{relation}/{targetId}` }],
  access: authenticated('readWrite'),
  summary: 'Relate an object to another object or a user',
  description:
    `Idempotent: linking again what is linked answers the relation unchanged. Needs edit on the object and read ` +
    `on the other end. The catalogue (from → to): ${CATALOGUE_TEXT}. The seven RACI kinds go from a process ` +
    'or task to a role, org unit or user; `heldBy` makes a user hold a role (and its responsibilities).',
  tag: 'Common',
  request: { path: relationPathSchema },
  responses: {
    200: { description: 'The relation', body: relationViewSchema },
    400: problem('The catalogue does not allow this relation between these types'),
    403: problem('Needs the editor role on the object'),
    404: problem('No such object or user'),
    409: problem('The relation kept changing; retry'),
  },
});

export const unlinkRelation = defineOperation({
  name: 'unlinkRelation',
  handler: 'functions/relations/unlink-relation.ts',
  routes: [{ method: 'DELETE', path: `${API_PREFIX}/items/{nodeId}/relations/{relation}/{targetId}` }],
  access: authenticated('readWrite'),
  summary: 'Remove a relation',
  description: 'For a responsibility, removes that kind only. Needs edit on the object.',
  tag: 'Common',
  request: { path: relationPathSchema },
  responses: {
    204: { description: 'Removed' },
    400: problem('Not a relation of the catalogue'),
    403: problem('Needs the editor role on the object'),
    404: problem('No such object, user or relation'),
    409: problem('The relation kept changing; retry'),
  },
});
