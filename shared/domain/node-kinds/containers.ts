/**
 * Types whose per-type retrieve lists their children (PROCESS: its diagram, tasks and the edges between them;
 * ENTITY: its attributes), and ENVIRONMENT, which knows where each facet keeps its items.
 */
import * as z from 'zod/mini';
import { edgeSchema } from '../process-diagram.ts';
import { defineKind } from './kind.ts';

export const PROCESS = defineKind({
  stored: z.object({
    /** The BPMN file it was imported from (bucket key), kept to give back what the import received. */
    bpmnTemplateKey: z._default(z.nullable(z.string()), null),
  }),
  // The per-type retrieve shows the diagram: the tasks with their geometry, and the edges between them.
  viewShape: { edges: z.optional(z.array(edgeSchema)) },
  childLists: [{ field: 'tasks', nodeType: 'TASK', element: 'withFields' }],
  // The file describes the diagram as it is, which a version restore does not undo.
  keptOnRestore: ['bpmnTemplateKey'],
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
