/**
 * Types whose per-type retrieve lists their children (PROCESS: its tasks and the edges between them;
 * ENTITY: its attributes), and ENVIRONMENT, which knows where each facet keeps its items.
 */
import * as z from 'zod/mini';
import { defineKind } from './kind.ts';

const pointSchema = z.strictObject({ x: z.int(), y: z.int() });
export const edgeSchema = z.strictObject({
  sourceNodeId: z.string(),
  sourcePortPoint: pointSchema,
  targetNodeId: z.string(),
  targetPortPoint: pointSchema,
});

export const PROCESS = defineKind({
  stored: z.object({}),
  // Tasks are placed on the diagram with the add-nodes operation; until then a process has no edges.
  viewShape: { edges: z.optional(z.array(edgeSchema)) },
  view: () => ({ edges: [] }),
  childLists: [{ field: 'tasks', nodeType: 'TASK', element: 'base' }],
});

export const ENTITY = defineKind({
  stored: z.object({}),
  childLists: [{ field: 'attributes', nodeType: 'ATTRIBUTE', element: 'name' }],
});

const environmentFields = z.object({
  /** nodeId of each system root, by its nodeType (set when the environment is created). */
  systemRootIds: z._default(z.record(z.string(), z.string()), {}),
});

export const ENVIRONMENT = defineKind({
  stored: environmentFields,
  viewShape: { systemRoots: z.optional(z.record(z.string(), z.string())) },
  view: ({ systemRootIds }) => ({ systemRoots: systemRootIds }),
});

/** Where an environment keeps each facet's items: system root nodeId by its nodeType. */
export const systemRootIdsOf = (fields: Record<string, unknown>) =>
  environmentFields.parse(fields).systemRootIds;
