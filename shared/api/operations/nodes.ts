/** Objects of every type: create, update, delete (their retrieves: node-reads.ts). */
import { FILE_PREFIX } from '#shared/data/storage-layout.ts';
import { DIAGRAM_LIMITS } from '#shared/domain/diagram-limits.ts';
import { baseElementSchema } from '#shared/domain/node.ts';
import { deletedNodesSchema } from '#shared/domain/node-elements.ts';
import {
  createNodePayloadSchema,
  deleteNodePayloadSchema,
  updateNodePayloadSchema,
} from '#shared/domain/node-payloads.ts';
import { REQUEST_EXAMPLES } from '../examples.ts';
import { API_PREFIX, authenticated, defineOperation, ETAG, NO_BUCKET, problem } from '../operation.ts';
import { draftQuerySchema, nodePathSchema } from '../params.ts';

export const createNode = defineOperation({
  name: 'createNode',
  idempotent: true,
  handler: 'functions/nodes/create-node.ts',
  routes: [{ method: 'POST', path: `${API_PREFIX}/items` }],
  // A FILE document's file is tagged attached (it no longer expires) before the document holds it.
  access: { ...authenticated('readWrite'), bucket: { ...NO_BUCKET, tag: [FILE_PREFIX] } },
  summary: 'Create an object',
  description:
    'Creates an object under `parent` (an environment or folder, or the environment for items kept under one of its ' +
    'system roots). Environments (`nodeType: ENVIRONMENT`, no parent) are created by system administrators.',
  tag: 'Common',
  request: { body: createNodePayloadSchema, query: draftQuerySchema, examples: REQUEST_EXAMPLES.createNode },
  responses: {
    200: { description: 'The created object, version 0.0001', body: baseElementSchema, headers: ETAG },
    403: problem('Not permitted (environments: system administrators only)'),
    404: problem(
      'PARENT_NOT_FOUND: no such parent (or not visible to the caller), or it is being deleted or was deleted meanwhile',
    ),
    409: problem(
      `TOO_MANY_TASKS: a task under a process that holds ${DIAGRAM_LIMITS.tasksPerProcess} tasks already`,
    ),
  },
});

export const updateNode = defineOperation({
  name: 'updateNode',
  conditions: ['If-Match', 'If-None-Match'],
  idempotent: true,
  handler: 'functions/nodes/update-node.ts',
  routes: [{ method: 'PUT', path: `${API_PREFIX}/items/{nodeId}` }],
  // A FILE document's file is tagged attached (it no longer expires) before the document holds it.
  access: { ...authenticated('readWrite'), bucket: { ...NO_BUCKET, tag: [FILE_PREFIX] } },
  summary: 'Update an object',
  description:
    'The body is the structure of the object with the current `nodeVersionId`, as retrieved (with or without ' +
    '`detail=true`) and changed: fields left out keep their values, `null` clears an optional field, read-only ' +
    'fields of a retrieved object are ignored. A stale nodeVersionId answers 409 with `currentNodeVersionId`; ' +
    '`If-Match` naming another version, or `If-None-Match` naming the current one or `*`, answers 412 and ' +
    'changes nothing.',
  tag: 'Common',
  request: {
    path: nodePathSchema,
    query: draftQuerySchema,
    body: updateNodePayloadSchema,
    examples: REQUEST_EXAMPLES.updateNode,
  },
  responses: {
    200: {
      description: 'The updated object: new nodeVersionId, next version',
      body: baseElementSchema,
      headers: ETAG,
    },
    403: problem('Needs the editor role on the object or above it'),
    404: problem('No such object (or not visible to the caller)'),
    409: problem('VERSION_CONFLICT: the nodeVersionId is not the current one (see currentNodeVersionId)'),
  },
});

export const deleteNode = defineOperation({
  name: 'deleteNode',
  conditions: ['If-Match', 'If-None-Match'],
  idempotent: true,
  handler: 'functions/nodes/delete-node.ts',
  routes: [{ method: 'DELETE', path: `${API_PREFIX}/items/{nodeId}` }],
  access: authenticated('readWrite'),
  summary: 'Delete an object and everything under it',
  description:
    'Soft delete of the object and its whole subtree; answers the deleted objects (`deleted: true`). ' +
    '`If-Match` naming another version, or `If-None-Match` naming the current one or `*`, answers 412 and ' +
    'deletes nothing.',
  tag: 'Common',
  request: {
    path: nodePathSchema,
    query: draftQuerySchema,
    body: deleteNodePayloadSchema,
    bodyOptional: true,
    examples: REQUEST_EXAMPLES.deleteNode,
  },
  responses: {
    200: { description: 'The deleted objects, the requested one first', body: deletedNodesSchema },
    403: problem('Not permitted (environments: system administrators only)'),
    404: problem('No such object'),
    409: problem(
      'SYSTEM_NODE_PROTECTED: system roots are deleted only with their environment. WRITE_CONFLICT: the ' +
        'subtree kept changing for the whole delete (deletedSoFar objects are deleted): repeat it to finish it',
    ),
  },
});
