/**
 * A process's diagram: its tasks (TASK nodes, node-kinds/task.ts) and the edges between them. The payloads
 * of the add-nodes operation (spec §2.3, §4.3) and of the edge operations, and an edge as stored and shown.
 */
import * as z from 'zod/mini';
import { DIAGRAM_LIMITS } from './diagram-limits.ts';
import { coordinateSchema, extentSchema, sequenceNumberSchema } from './node-kinds/task.ts';
import { named, objectNameSchema, uuidSchema } from './schema-parts.ts';

export { DIAGRAM_LIMITS };

export const pointSchema = named(z.strictObject({ x: coordinateSchema, y: coordinateSchema }), 'PortPoint');

const editIdSchema = z.string().check(z.minLength(1), z.maxLength(100));

/** Spec §2.3 edge object: its ends are editIds of tasks in the request, or nodeIds of the process's tasks. */
export const taskEdgePayloadSchema = z.strictObject({
  sourceNodeId: editIdSchema,
  sourcePortPoint: pointSchema,
  targetNodeId: editIdSchema,
  targetPortPoint: pointSchema,
});

/** Spec §2.3 task node. */
export const taskNodePayloadSchema = named(
  z.strictObject({
    '@type': z.literal('TaskNode'),
    nodeType: z.literal('TASK'),
    name: objectNameSchema(255),
    sequenceNumber: sequenceNumberSchema,
    topLeftX: coordinateSchema,
    topLeftY: coordinateSchema,
    width: extentSchema,
    height: extentSchema,
    editId: editIdSchema,
    edges: z.optional(z.array(taskEdgePayloadSchema).check(z.maxLength(DIAGRAM_LIMITS.edgesPerCall))),
  }),
  'TaskNode',
);
export type TaskNodePayload = z.output<typeof taskNodePayloadSchema>;

export const addTasksPayloadSchema = named(
  z.array(taskNodePayloadSchema).check(z.minLength(1), z.maxLength(DIAGRAM_LIMITS.tasksPerCall)),
  'TaskNodes',
);

/** An edge between two tasks of the process, as stored and shown. */
export const edgeSchema = named(
  z.strictObject({
    edgeId: z.string(),
    sourceNodeId: z.string(),
    sourcePortPoint: pointSchema,
    targetNodeId: z.string(),
    targetPortPoint: pointSchema,
  }),
  'Edge',
);
export type Edge = z.output<typeof edgeSchema>;
/** What is kept of an edge: also the BPMN sequence flow it was imported from. */
export type StoredEdge = Edge & { bpmnElementId: string | null };

/** The edge operation's payload: edges between tasks of the process, named by nodeId. */
export const newEdgesPayloadSchema = named(
  z
    .array(
      z.strictObject({
        sourceNodeId: uuidSchema,
        sourcePortPoint: pointSchema,
        targetNodeId: uuidSchema,
        targetPortPoint: pointSchema,
      }),
    )
    .check(z.minLength(1), z.maxLength(DIAGRAM_LIMITS.edgesPerEdgeCall)),
  'NewEdges',
);
export type NewEdgePayload = z.output<typeof newEdgesPayloadSchema>[number];
