/**
 * A process's diagram as stored: its edges, and the batches of writes that take more than one transaction.
 * How items of the single table are described: ../entity.ts; which key serves which query: ../table-schema.ts.
 */
import * as z from 'zod/mini';
import { edgeSchema, type StoredEdge } from '#shared/domain/process-diagram.ts';
import { defineEntity } from '../entity.ts';
import { diagramBatchKey, edgeKey } from '../keys.ts';

/**
 * An edge of a process's diagram; one written by a batch carries its batchId. Who added it (or restored it)
 * and when are kept for the change feed: an edge has no versions of its own to say so.
 */
export const edges = defineEntity({
  name: 'Edge',
  schema: z.object({
    ...edgeSchema.shape,
    bpmnElementId: z._default(z.nullable(z.string()), null),
    batchId: z.optional(z.string()),
    changedBy: z.optional(z.string()),
    changedAt: z.optional(z.string()),
  }),
  keys: (edge, processId: string) => edgeKey(processId, edge.edgeId),
});

/** An edge as the diagram has it, without the storage's bookkeeping. */
export const storedEdge = ({
  batchId: _batch,
  changedBy: _by,
  changedAt: _at,
  ...edge
}: ReturnType<typeof edges.fromItem>): StoredEdge => edge;

/**
 * A batch of writes to a process that takes more than one transaction: its nodes and edges are written
 * first, invisible (they carry its batchId), and become visible together when it commits.
 */
export const diagramBatches = defineEntity({
  name: 'DiagramBatch',
  schema: z.object({
    batchId: z.string(),
    state: z.enum(['open', 'committed', 'abandoned']),
    startedAt: z.string(),
  }),
  keys: (batch, processId: string) => diagramBatchKey(processId, batch.batchId),
});

export type DiagramBatch = ReturnType<typeof diagramBatches.fromItem>;
