/**
 * Batches: many tasks and edges added to a process at once take more writes than one DynamoDB transaction
 * holds (100 items). They are written first carrying the batch's id, which hides them from every reader,
 * and the batch's record in the process's partition says whether they exist: open while they are being
 * written, committed by the one final transaction that also counts them and moves the process's version
 * (so they become visible all at once), abandoned when the request failed, then removed with what it wrote.
 */
import { type DiagramBatch, diagramBatches, edges } from './entities/process-diagrams.ts';
import { CHILD_LINK_PREFIX, DIAGRAM_BATCH_PREFIX, diagramBatchKey, EDGE_PREFIX, nodeKey } from './keys.ts';
import { batchGetItems, queryAll } from './reads.ts';
import { TABLE_SCHEMA } from './table-schema.ts';

/** Which batch wrote an item: the process it belongs to and the batch's id. */
export interface BatchRef {
  processId: string;
  batchId: string;
}

type EdgeItem = ReturnType<typeof edges.fromItem>;

const refKey = ({ processId, batchId }: BatchRef) => `${processId}/${batchId}`;

/** Of the batches named, those that have committed (one consistent batch read; none when none are named). */
export async function committedAmong(refs: BatchRef[]): Promise<(ref: BatchRef) => boolean> {
  const distinct = [...new Map(refs.map((ref) => [refKey(ref), ref])).values()];
  if (distinct.length === 0) return () => false;
  const items = await batchGetItems(
    distinct.map((ref) => diagramBatchKey(ref.processId, ref.batchId)),
    { consistent: true },
  );
  const committed = new Set(
    items.flatMap((item) => {
      const batch = diagramBatches.fromItem(item);
      const processId = String(item.PK).slice('NODE#'.length);
      return batch.state === 'committed' ? [refKey({ processId, batchId: batch.batchId })] : [];
    }),
  );
  return (ref) => committed.has(refKey(ref));
}

/** The batch records of a process (strongly consistent). */
export async function batchesOf(processId: string): Promise<DiagramBatch[]> {
  const items = await queryAll(TABLE_SCHEMA.partitionKey, nodeKey(processId).PK, {
    sortKeyPrefix: { attribute: TABLE_SCHEMA.sortKey, prefix: DIAGRAM_BATCH_PREFIX },
    consistent: true,
  });
  return items.map(diagramBatches.fromItem);
}

/** What a batch wrote into a process's partition: the links of its nodes, and its edges (who added them). */
export async function stagedBy(
  processId: string,
  batchId: string,
): Promise<{ nodeIds: string[]; edges: EdgeItem[] }> {
  const partition = nodeKey(processId).PK;
  const read = (prefix: string) =>
    queryAll(TABLE_SCHEMA.partitionKey, partition, {
      sortKeyPrefix: { attribute: TABLE_SCHEMA.sortKey, prefix },
      consistent: true,
    });
  const [links, edgeItems] = await Promise.all([read(CHILD_LINK_PREFIX), read(EDGE_PREFIX)]);
  const ofBatch = (item: Record<string, unknown>) => item.batchId === batchId;
  return {
    nodeIds: links.filter(ofBatch).map((item) => String(item.childId)),
    edges: edgeItems.filter(ofBatch).map(edges.fromItem),
  };
}
