/** A process's diagram: tasks added with their edges (spec §4.3), edges added and removed, BPMN 2.0 in and out. */
import * as z from 'zod/mini';
import { BPMN_TEMPLATE_PREFIX } from '#shared/data/storage-layout.ts';
import { BPMN_LIMITS, bpmnImportSchema } from '#shared/domain/bpmn-import.ts';
import { baseElementSchema } from '#shared/domain/node.ts';
import {
  addTasksPayloadSchema,
  DIAGRAM_LIMITS,
  edgeSchema,
  newEdgesPayloadSchema,
} from '#shared/domain/process-diagram.ts';
import { uuidSchema } from '#shared/domain/schema-parts.ts';
import { API_PREFIX, authenticated, defineOperation, NO_BUCKET, problem } from '../operation.ts';
import { draftQuerySchema, flagParam } from '../params.ts';

const processPathSchema = z.strictObject({ processId: uuidSchema });
const NOT_EDITABLE = problem('Needs the editor role on the process');
const NO_PROCESS = problem('No such process (or not visible to the caller)');
const PROCESS_PATH = `${API_PREFIX}/process/processes/{processId}`;

const TOO_MANY_TASKS = `TOO_MANY_TASKS: the process would hold more than ${DIAGRAM_LIMITS.tasksPerProcess} tasks`;
const TOO_MANY_EDGES = `TOO_MANY_EDGES: the process would hold more than ${DIAGRAM_LIMITS.edgesPerProcess} edges`;

export const addProcessNodes = defineOperation({
  name: 'addProcessNodes',
  idempotent: true,
  handler: 'functions/process/add-process-nodes.ts',
  routes: [{ method: 'POST', path: `${API_PREFIX}/process/nodes` }],
  access: authenticated('readWrite'),
  memoryMb: 1024,
  summary: 'Add task nodes to a process',
  description:
    `Spec §4.3. The body is an array of TaskNode (at most ${DIAGRAM_LIMITS.tasksPerCall} tasks and ` +
    `${DIAGRAM_LIMITS.edgesPerCall} edges, at most ${DIAGRAM_LIMITS.addNodesBodyBytes / 1024} KiB). Each edge names ` +
    'its ends by the editId of a task in the same request, or by the nodeId of a task already in the process. ' +
    'All of it is created, or none of it; the process moves to its next version. The answer holds the new tasks ' +
    `in request order, each with its editId. A process holds at most ${DIAGRAM_LIMITS.tasksPerProcess} tasks and ` +
    `${DIAGRAM_LIMITS.edgesPerProcess} edges.`,
  tag: 'Process',
  request: {
    query: z.strictObject({ process: uuidSchema, draft: flagParam(true) }),
    body: addTasksPayloadSchema,
    bodyFormat: { mediaType: 'application/json', maxBytes: DIAGRAM_LIMITS.addNodesBodyBytes },
  },
  responses: {
    200: { description: 'The new tasks, in request order, version 0.0002', body: z.array(baseElementSchema) },
    400: problem('Invalid tasks or edges (each bad field named), or `process` is not a PROCESS'),
    403: NOT_EDITABLE,
    404: NO_PROCESS,
    409: problem(`${TOO_MANY_TASKS}, or ${TOO_MANY_EDGES} (nothing is created)`),
  },
});

export const addProcessEdges = defineOperation({
  name: 'addProcessEdges',
  idempotent: true,
  handler: 'functions/process/add-process-edges.ts',
  routes: [{ method: 'POST', path: `${PROCESS_PATH}/edges` }],
  access: authenticated('readWrite'),
  summary: 'Add edges between tasks of a process',
  description:
    `At most ${DIAGRAM_LIMITS.edgesPerEdgeCall} edges per call, each between two tasks of the process (by nodeId). ` +
    `The process moves to its next version. A process holds at most ${DIAGRAM_LIMITS.edgesPerProcess} edges.`,
  tag: 'Process',
  request: { path: processPathSchema, body: newEdgesPayloadSchema },
  responses: {
    200: { description: 'The new edges, each with its edgeId', body: z.array(edgeSchema) },
    400: problem('An end that is not a task of this process, or a bad port point (each named)'),
    403: NOT_EDITABLE,
    404: NO_PROCESS,
    409: problem(`${TOO_MANY_EDGES} (none is added)`),
  },
});

export const deleteProcessEdge = defineOperation({
  name: 'deleteProcessEdge',
  idempotent: true,
  handler: 'functions/process/delete-process-edge.ts',
  routes: [{ method: 'DELETE', path: `${PROCESS_PATH}/edges/{edgeId}` }],
  access: authenticated('readWrite'),
  summary: 'Remove an edge of a process',
  description: 'The process moves to its next version.',
  tag: 'Process',
  request: { path: z.strictObject({ processId: uuidSchema, edgeId: uuidSchema }) },
  responses: {
    204: { description: 'Removed' },
    403: NOT_EDITABLE,
    404: problem('No such process or edge'),
  },
});

export const exportBpmn = defineOperation({
  name: 'exportBpmn',
  handler: 'functions/process/export-bpmn.ts',
  routes: [{ method: 'GET', path: `${PROCESS_PATH}/bpmn` }],
  access: { ...authenticated('read'), bucket: { ...NO_BUCKET, read: [BPMN_TEMPLATE_PREFIX] } },
  memoryMb: 1024,
  summary: 'Export a process as BPMN 2.0',
  description:
    'BPMN 2.0 XML with diagram interchange: the tasks as tasks (of the BPMN type they were imported as), the ' +
    'edges as sequence flows, shapes and waypoints from the stored geometry. A process imported from BPMN gives ' +
    'back what the import kept (events, gateways, lanes, pools, ...), with the diagram changes made since. ' +
    '`draft=false` exports the process as last published: its published tasks and the edges it was published with.',
  tag: 'Process',
  request: { path: processPathSchema, query: draftQuerySchema },
  responses: {
    200: {
      description: 'The process as a BPMN 2.0 file',
      body: { mediaType: 'application/xml' },
      headers: { 'Content-Disposition': 'attachment; filename="<process name>.bpmn"' },
    },
    404: NO_PROCESS,
  },
});

export const importBpmn = defineOperation({
  name: 'importBpmn',
  idempotent: true,
  handler: 'functions/process/import-bpmn.ts',
  routes: [{ method: 'POST', path: `${PROCESS_PATH}/bpmn` }],
  access: { ...authenticated('readWrite'), bucket: { ...NO_BUCKET, write: [BPMN_TEMPLATE_PREFIX] } },
  memoryMb: 1024,
  summary: 'Import a BPMN 2.0 file into a process',
  description:
    'The body is a BPMN 2.0 file (Content-Type application/xml, text/xml or application/bpmn+xml, at most ' +
    `${BPMN_LIMITS.fileBytes / 1024 / 1024} MiB, in the encoding its byte order mark, charset or XML declaration ` +
    `names, else UTF-8; no DOCTYPE or entity declarations, elements nested at most ` +
    `${BPMN_LIMITS.nestingDepth} deep, an export of it at most ${BPMN_LIMITS.importedExportBytes / 1024 / 1024} MiB). ` +
    'Its tasks become the ' +
    "process's tasks and the sequence flows between them its edges, with their geometry; every other element is " +
    'kept with the process (exported again) and listed in `report`. The process must have no tasks yet, and ' +
    `takes at most ${DIAGRAM_LIMITS.tasksPerProcess} tasks and ${DIAGRAM_LIMITS.edgesPerProcess} edges.`,
  tag: 'Process',
  request: {
    path: processPathSchema,
    body: z.string(),
    bodyFormat: {
      mediaType: 'application/xml',
      alsoDocumented: ['text/xml', 'application/bpmn+xml'],
      maxBytes: BPMN_LIMITS.fileBytes,
    },
  },
  responses: {
    200: { description: 'What was imported, and what was kept or left out', body: bpmnImportSchema },
    400: problem(
      'Not a BPMN 2.0 file, an encoding not read, a DOCTYPE or entity declaration, nesting too deep, an export too large, or no process in it',
    ),
    403: NOT_EDITABLE,
    404: NO_PROCESS,
    409: problem(
      `PROCESS_NOT_EMPTY: the process has tasks already. ${TOO_MANY_TASKS} (tasks in the file), or ` +
        `${TOO_MANY_EDGES} (sequence flows between tasks in the file). Nothing is imported.`,
    ),
  },
});
