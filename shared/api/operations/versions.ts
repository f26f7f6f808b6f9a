/** Publishing (spec §2.1, §3) and the version history of an object. */
import * as z from 'zod/mini';
import { baseElementSchema } from '#shared/domain/node.ts';
import { retrievedNodeSchema } from '#shared/domain/node-elements.ts';
import { versionQuotePayloadSchema, versionsPageSchema } from '#shared/domain/node-version.ts';
import { uuidSchema } from '#shared/domain/schema-parts.ts';
import { API_PREFIX, authenticated, defineOperation, ETAG, problem } from '../operation.ts';
import { cursorQuerySchema, flagParam, nodePathSchema } from '../params.ts';

const ITEM = `${API_PREFIX}/items/{nodeId}`;
const versionPathSchema = z.strictObject({ nodeId: uuidSchema, nodeVersionId: uuidSchema });
const QUOTE =
  'Name the version you saw: `nodeVersionId` in the body or `If-Match: W/"<nodeVersionId>"` (one is required; ' +
  '`If-Match: *` names no version, 400 VERSION_REQUIRED alone); another version is a 409 VERSION_CONFLICT (412 ' +
  'for If-Match). `If-None-Match` naming the current version, or `*`, answers 412 and changes nothing.';

export const publishNode = defineOperation({
  name: 'publishNode',
  conditions: ['If-Match', 'If-None-Match'],
  handler: 'functions/versions/publish-node.ts',
  routes: [{ method: 'POST', path: `${ITEM}/publish` }],
  access: authenticated('readWrite'),
  summary: 'Publish an object',
  description:
    `Environment admins. The working copy becomes the next major version (0.0003 → 1.0000), PUBLISHED, with ` +
    `publishedNodeVersionId equal to its nodeVersionId; draft=false reads show it until the next publish. ${QUOTE} ` +
    'A process is published with its tasks. `recursive=true` publishes a folder with its whole subtree. Up to ' +
    'about 30 objects commit together, all or nothing; more (up to 2,000; 409 PUBLISH_TOO_LARGE beyond) commit in ' +
    'steps, deepest first and the given object last (a 409 WRITE_CONFLICT then leaves the steps before it ' +
    'published). Objects already published and unchanged stay as they are. The answer lists the objects, the ' +
    'given one first.',
  tag: 'Common',
  request: {
    path: nodePathSchema,
    query: z.strictObject({ recursive: flagParam(false) }),
    body: versionQuotePayloadSchema,
    bodyOptional: true,
  },
  responses: {
    200: { description: 'The published objects, the given one first', body: z.array(baseElementSchema) },
    403: problem('Needs the environment admin role'),
    404: problem('No such object (or not visible to the caller)'),
    409: problem(
      'VERSION_CONFLICT: not the current version; WRITE_CONFLICT: changed meanwhile; PUBLISH_TOO_LARGE',
    ),
  },
});

export const listVersions = defineOperation({
  name: 'listVersions',
  handler: 'functions/versions/list-versions.ts',
  routes: [{ method: 'GET', path: `${ITEM}/versions` }],
  access: authenticated('read'),
  summary: "An object's version history",
  description:
    'Newest first, paged with pageSize and cursor (pass nextCursor back): the working copy first (current: true), ' +
    'then every earlier version, published ones included. Every version is kept as long as the object is.',
  tag: 'Common',
  request: { path: nodePathSchema, query: cursorQuerySchema },
  responses: {
    200: { description: 'A page of versions', body: versionsPageSchema },
    404: problem('No such object (or not visible to the caller)'),
  },
});

export const getVersion = defineOperation({
  name: 'getVersion',
  handler: 'functions/versions/get-version.ts',
  routes: [{ method: 'GET', path: `${ITEM}/versions/{nodeVersionId}` }],
  access: authenticated('read'),
  summary: 'One version of an object, as it was',
  description:
    'The object as it was at that version, with its type-specific fields (a FILE document’s fileInfo).',
  tag: 'Common',
  request: { path: versionPathSchema },
  responses: {
    200: { description: 'The version', body: retrievedNodeSchema, headers: ETAG },
    404: problem('No such object or version (or not visible to the caller)'),
  },
});

export const restoreVersion = defineOperation({
  name: 'restoreVersion',
  conditions: ['If-Match', 'If-None-Match'],
  handler: 'functions/versions/restore-version.ts',
  routes: [{ method: 'POST', path: `${ITEM}/versions/{nodeVersionId}/restore` }],
  access: authenticated('readWrite'),
  summary: 'Make an old version the working copy',
  description:
    'Editors. The version’s content (name, description, reference number, extensions, its type’s fields, a ' +
    `document’s file) becomes the next working copy, in progress; the published copy is unchanged. ${QUOTE}`,
  tag: 'Common',
  request: { path: versionPathSchema, body: versionQuotePayloadSchema, bodyOptional: true },
  responses: {
    200: { description: 'The new working copy', body: baseElementSchema, headers: ETAG },
    403: problem('Needs the editor role'),
    404: problem('No such object or version (or not visible to the caller)'),
    409: problem('VERSION_CONFLICT: not the current version'),
  },
});
