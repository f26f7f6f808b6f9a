/**
 * Objects of every type: retrieve, and retrieve per type. Apart from nodes.ts (the writes), so a retrieve
 * does not build the write payloads' schemas at a cold start.
 */
import * as z from 'zod/mini';
import { retrievedNodeSchema, typedElementSchema } from '#shared/domain/node-elements.ts';
import { uuidSchema } from '#shared/domain/schema-parts.ts';
import { TYPED_RETRIEVES } from '#shared/domain/typed-retrieves.ts';
import { API_PREFIX, authenticated, defineOperation, ETAG, problem } from '../operation.ts';
import { flagParam, nodePathSchema } from '../params.ts';

/** Spec §4.4's retrieve queries, on the common path and the per-type ones alike. */
const retrieveQuerySchema = z.strictObject({ draft: flagParam(true), detail: flagParam(false) });

export const getNode = defineOperation({
  name: 'getNode',
  handler: 'functions/nodes/get-node.ts',
  routes: [{ method: 'GET', path: `${API_PREFIX}/items/{nodeId}` }],
  access: authenticated('read'),
  summary: 'Retrieve an object',
  description:
    '`draft=true` (default) answers the working copy, `draft=false` the last published version. `detail=true` adds ' +
    'the parent and the type-specific fields. `If-None-Match` with the current ETag answers 304; `If-Match` ' +
    'with another answers 412 (it is evaluated first).',
  conditions: ['If-Match', 'If-None-Match'],
  tag: 'Common',
  request: {
    path: nodePathSchema,
    query: retrieveQuerySchema,
  },
  responses: {
    200: {
      description: 'The object (with detail=true: the detailed object)',
      body: retrievedNodeSchema,
      headers: ETAG,
    },
    304: { description: 'The ETag in If-None-Match is current', headers: ETAG },
    400: problem('Malformed nodeId or query parameter'),
    404: problem('No such object (or deleted, or never published with draft=false)'),
  },
});

const pascal = (label: string) => label.replace(/(^|[\s-])(\w)/g, (_, __, c: string) => c.toUpperCase());

export const getTypedNode = defineOperation({
  name: 'getTypedNode',
  handler: 'functions/nodes/get-typed-node.ts',
  // The 14 per-type retrieve paths of spec §4.4, spelled as published.
  routes: TYPED_RETRIEVES.map((typed) => ({
    method: 'GET' as const,
    path: `${API_PREFIX}${typed.path}`,
    id: `get${pascal(typed.label)}`,
    tag: typed.tag,
    summary: `Retrieve a ${typed.label}`,
  })),
  access: authenticated('read'),
  summary: 'Retrieve an object of one type',
  description:
    'The object with its own `@type`, its parent as a NameElement and its type’s own fields (documents: ' +
    'documentType, url, fileInfo; processes: tasks and edges; entities: attributes). An id of another type, or of ' +
    'an object the caller may not read, is a 404. `draft=false` answers the published version. `detail` is ' +
    'taken as on the common retrieve (spec §4.4) and changes nothing: this view is always the full one. The ' +
    'ETag is the object’s; `If-Match` with another answers 412. `If-None-Match` is not taken (always 200): the ' +
    'view also holds children, a process’s diagram and names that change without the object’s version.',
  conditions: ['If-Match'],
  tag: 'Common',
  request: {
    // Each route carries exactly one of these.
    path: z.strictObject(Object.fromEntries(TYPED_RETRIEVES.map((t) => [t.param, z.optional(uuidSchema)]))),
    query: retrieveQuerySchema,
  },
  responses: {
    200: { description: 'The object', body: typedElementSchema, headers: ETAG },
    400: problem('Malformed id or query parameter'),
    404: problem('No object of this type with this id (or not visible to the caller)'),
  },
});
