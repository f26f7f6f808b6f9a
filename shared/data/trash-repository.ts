/** The trash: entries of deleted subtrees, and the links and edges a delete kept to find a subtree again. */
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoDb } from '#shared/clients/dynamodb.ts';
import { config } from '#shared/config/index.ts';
import { ServiceUnavailableError } from '#shared/domain/errors.ts';
import type { StoredEdge } from '#shared/domain/process-diagram.ts';
import { type TrashEntry, trashEntries, trashedChildren } from './entities/nodes.ts';
import { edges, storedEdge } from './entities/process-diagrams.ts';
import type { Item } from './entity.ts';
import { positionOf, queryPage } from './keyed-pages.ts';
import {
  nodeKey,
  PURGE_STARTED_ATTRIBUTE,
  TRASH_PARTITION,
  TRASHED_CHILDREN_PREFIX,
  trashEntryKey,
  trashedChildPrefix,
  trashedEdgePrefix,
  trashPointerKey,
} from './keys.ts';
import { getItem, queryAll } from './reads.ts';
import { TABLE_SCHEMA } from './table-schema.ts';

/** A deleted subtree in the trash (restorable or not), as its root's partition points to its entry. */
export interface TrashPointer {
  /** When the subtree was deleted (which names its entry). */
  deletedAt: string;
  /** When a purge of it began (it can no longer be restored), or null. */
  purgeStartedAt: string | null;
}

/** The pointer of the subtree of `rootId` while it is in the trash (restorable or not): else null. */
export async function findTrashPointer(rootId: string): Promise<TrashPointer | null> {
  const pointer = await getItem(trashPointerKey(rootId));
  if (typeof pointer?.deletedAt !== 'string') return null;
  const purgeStartedAt = pointer[PURGE_STARTED_ATTRIBUTE];
  return {
    deletedAt: pointer.deletedAt,
    purgeStartedAt: typeof purgeStartedAt === 'string' ? purgeStartedAt : null,
  };
}

/** The trash entry of a deleted subtree's root (also while a restore of it is under way), unexpired. */
export async function findTrashEntry(rootId: string, nowMs: number): Promise<TrashEntry | null> {
  const deletedAt = (await findTrashPointer(rootId))?.deletedAt;
  if (!deletedAt) return null;
  const item = await getItem(trashEntryKey(deletedAt, rootId));
  if (!item) return null;
  const entry = trashEntries.fromItem(item);
  return entry.expiresAtEpoch * 1000 > nowMs ? entry : null;
}

const TRASH_PAGES = { partition: TRASH_PARTITION, descending: true };

/**
 * A page of the trash, newest first (expired entries that TTL has not removed yet are left out), each
 * entry with the position just after it: a list that leaves some out resumes after one it showed.
 */
export async function trashPage(limit: number, after: string | undefined, nowMs: number) {
  const page = await queryPage(TRASH_PAGES, limit, after ? { after } : {});
  const entries = page.items
    .map((item) => ({ entry: trashEntries.fromItem(item), position: positionOf(item, TRASH_PAGES) }))
    .filter(({ entry }) => entry.expiresAtEpoch * 1000 > nowMs);
  return { entries, ...(page.next ? { next: page.next } : {}) };
}

const partitionOf = (nodeId: string) => nodeKey(nodeId).PK;
const query = (nodeId: string, prefix: string) =>
  queryAll(TABLE_SCHEMA.partitionKey, partitionOf(nodeId), {
    sortKeyPrefix: { attribute: TABLE_SCHEMA.sortKey, prefix },
    consistent: true,
  });

/** The children of `parentId` deleted with the subtree of `rootId`. */
export async function trashedChildIds(parentId: string, rootId: string): Promise<string[]> {
  return (await query(parentId, trashedChildPrefix(rootId))).map(
    (item) => trashedChildren.fromItem(item).childId,
  );
}

/**
 * Among a partition's items, the links of children each deleted as the root of a delete of its own, not
 * with that of `rootId`: those children's ids (each its trash entry's root).
 */
export function deletedOnTheirOwn(items: Item[], rootId: string): string[] {
  return items.flatMap((item) => {
    const sk = String(item.SK);
    if (!sk.startsWith(TRASHED_CHILDREN_PREFIX)) return [];
    const [linkRoot, childId] = sk.slice(TRASHED_CHILDREN_PREFIX.length).split('#');
    return linkRoot && linkRoot !== rootId && linkRoot === childId ? [linkRoot] : [];
  });
}

/** The children of `parentId` each deleted as the root of a delete of its own, not with that of `rootId`. */
export async function childrenDeletedOnTheirOwn(parentId: string, rootId: string): Promise<string[]> {
  return deletedOnTheirOwn(await query(parentId, TRASHED_CHILDREN_PREFIX), rootId);
}

/** The edges of `processId` removed with the subtree of `rootId`. */
export async function trashedEdges(processId: string, rootId: string): Promise<StoredEdge[]> {
  return (await query(processId, trashedEdgePrefix(rootId))).map((item) => storedEdge(edges.fromItem(item)));
}

/** Every item of a node's partition (its copies, versions, counts, grants, links, edges). */
export function partitionItems(nodeId: string): Promise<Item[]> {
  return queryAll(TABLE_SCHEMA.partitionKey, partitionOf(nodeId), { consistent: true });
}

/** Deletes items for good, 25 to a call, again for those DynamoDB leaves unprocessed. */
export async function deleteItems(keys: { PK: unknown; SK: unknown }[]): Promise<void> {
  const TableName = config().tableName;
  for (let start = 0; start < keys.length; start += 25) {
    let requests = keys
      .slice(start, start + 25)
      .map((key) => ({ DeleteRequest: { Key: { PK: key.PK, SK: key.SK } } }));
    for (let attempt = 0; requests.length > 0; attempt++) {
      if (attempt === 6) throw new ServiceUnavailableError('The data store is busy; retry the purge');
      const { UnprocessedItems } = await dynamoDb().send(
        new BatchWriteCommand({ RequestItems: { [TableName]: requests } }),
      );
      requests = (UnprocessedItems?.[TableName] ?? []) as typeof requests;
    }
  }
}
