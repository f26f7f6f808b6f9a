/** The trash: deleted subtrees listed, restored as they were, or purged for good. */
import * as z from 'zod/mini';
import { BPMN_TEMPLATE_PREFIX, FILE_PREFIX } from '#shared/data/storage-layout.ts';
import { DIAGRAM_LIMITS } from '#shared/domain/diagram-limits.ts';
import { baseElementSchema } from '#shared/domain/node.ts';
import { trashPageSchema } from '#shared/domain/trash.ts';
import { API_PREFIX, authenticated, defineOperation, NO_BUCKET, problem } from '../operation.ts';
import { cursorQuerySchema, nodePathSchema } from '../params.ts';

const RETENTION = 'A deleted subtree stays in the trash for 30 days.';

export const listTrash = defineOperation({
  name: 'listTrash',
  handler: 'functions/trash/list-trash.ts',
  routes: [{ method: 'GET', path: `${API_PREFIX}/trash` }],
  access: authenticated('read'),
  summary: 'Deleted subtrees',
  description: `The roots of deleted subtrees the caller may delete (environment admins), newest first, paged with pageSize and cursor. ${RETENTION}`,
  tag: 'Common',
  request: { query: cursorQuerySchema },
  responses: { 200: { description: 'A page of the trash', body: trashPageSchema } },
});

export const restoreNode = defineOperation({
  name: 'restoreNode',
  handler: 'functions/trash/restore-node.ts',
  routes: [{ method: 'POST', path: `${API_PREFIX}/items/{nodeId}/restore` }],
  access: authenticated('readWrite'),
  summary: 'Restore a deleted subtree',
  description:
    'Environment admins. The subtree a delete took comes back as it was: every object live again under its ' +
    'parent (in lists and counts), with its published copy and its process edges, each at its next version. ' +
    'The parent must be live (409 PARENT_DELETED: restore it first; PARENT_PURGED: it is gone for good, and ' +
    'this subtree can only be purged). Tasks and edges restored into a process ' +
    `may not take it past ${DIAGRAM_LIMITS.tasksPerProcess} tasks or ${DIAGRAM_LIMITS.edgesPerProcess} edges ` +
    '(409 TOO_MANY_TASKS or TOO_MANY_EDGES, nothing restored); a process restored with its own tasks and edges ' +
    'has room for them. A restore cut short is finished by ' +
    'repeating it; one that meets a delete of its parent or of what it brought back stops with a 409 ' +
    'PARENT_DELETED (what it brought back is deleted with it; restore the parent, then repeat). Once a ' +
    `purge of the subtree has begun it can no longer be restored (409 PURGE_UNDER_WAY). ${RETENTION}`,
  tag: 'Common',
  request: { path: nodePathSchema },
  responses: {
    200: { description: 'The restored objects, the root first', body: z.array(baseElementSchema) },
    403: problem('Needs the environment admin role'),
    404: problem('Not in the trash (never deleted, restored, purged or expired)'),
    409: problem(
      'PARENT_DELETED, PARENT_PURGED, PURGE_UNDER_WAY, TOO_MANY_TASKS or TOO_MANY_EDGES (a process would hold more than ' +
        `${DIAGRAM_LIMITS.tasksPerProcess} tasks or ${DIAGRAM_LIMITS.edgesPerProcess} edges), or WRITE_CONFLICT ` +
        '(repeat the restore)',
    ),
  },
});

export const purgeTrash = defineOperation({
  name: 'purgeTrash',
  handler: 'functions/trash/purge-trash.ts',
  routes: [{ method: 'DELETE', path: `${API_PREFIX}/trash/{nodeId}` }],
  // A purge deletes the files of its documents and the BPMN files of its processes.
  access: {
    ...authenticated('readWrite'),
    bucket: { ...NO_BUCKET, write: [FILE_PREFIX, BPMN_TEMPLATE_PREFIX] },
  },
  summary: 'Purge a deleted subtree for good',
  description:
    'Environment admins. The subtree in the trash is deleted for good: its objects, their versions, the edges ' +
    'and links kept for a restore, and the files of its documents (of every version); then what was ' +
    'deleted from the subtree on its own before (its own trash entries, which nothing could restore now). ' +
    'Not while a restore of ' +
    'it has begun and not finished (409 RESTORE_UNDER_WAY: repeat the restore, then delete and purge); once ' +
    'a purge has begun no restore can, and a purge cut short is finished by repeating it.',
  tag: 'Common',
  request: { path: nodePathSchema },
  responses: {
    204: { description: 'Purged' },
    403: problem('Needs the environment admin role'),
    404: problem('Not in the trash'),
    409: problem('RESTORE_UNDER_WAY: a restore of it has begun and is not finished'),
  },
});
