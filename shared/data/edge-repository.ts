/** Reads of a process's edges (writes go through node-write-path.ts). */
import type { StoredEdge } from '#shared/domain/process-diagram.ts';
import { committedAmong } from './diagram-batches.ts';
import { edges, storedEdge } from './entities/process-diagrams.ts';
import { EDGE_PREFIX, edgeKey, nodeKey, PUBLISHED_EDGES, PUBLISHED_TASK_IDS } from './keys.ts';
import { getItem, queryAll } from './reads.ts';
import { TABLE_SCHEMA } from './table-schema.ts';

type EdgeItem = ReturnType<typeof edges.fromItem>;

/** The edges readers can see: those of no batch, or of a committed one. */
async function visible(processId: string, found: EdgeItem[]): Promise<StoredEdge[]> {
  const refs = found.flatMap((edge) => (edge.batchId ? [{ processId, batchId: edge.batchId }] : []));
  const committed = await committedAmong(refs);
  return found
    .filter((edge) => !edge.batchId || committed({ processId, batchId: edge.batchId }))
    .map(storedEdge);
}

/** Every edge of a process, strongly consistent. */
export async function findEdges(processId: string): Promise<StoredEdge[]> {
  const items = await queryAll(TABLE_SCHEMA.partitionKey, nodeKey(processId).PK, {
    sortKeyPrefix: { attribute: TABLE_SCHEMA.sortKey, prefix: EDGE_PREFIX },
    consistent: true,
  });
  return visible(processId, items.map(edges.fromItem));
}

export async function findEdge(processId: string, edgeId: string): Promise<StoredEdge | null> {
  const item = await getItem(edgeKey(processId, edgeId));
  const [edge] = item ? await visible(processId, [edges.fromItem(item)]) : [];
  return edge ?? null;
}

/**
 * A process's diagram as it was last published (kept on its published copy): its edges, and the ids of
 * its tasks (null when published before the copy kept them); null if never published.
 */
export async function findPublishedDiagram(
  processId: string,
): Promise<{ edges: StoredEdge[]; taskIds: string[] | null } | null> {
  const item = await getItem(nodeKey(processId, 'PUBLISHED'));
  const kept = item?.[PUBLISHED_EDGES];
  if (!item || !Array.isArray(kept)) return null;
  const taskIds = item[PUBLISHED_TASK_IDS];
  return {
    edges: kept.map((edge) => storedEdge(edges.fromItem(edge as Record<string, unknown>))),
    taskIds: Array.isArray(taskIds) ? taskIds.filter((id): id is string => typeof id === 'string') : null,
  };
}
