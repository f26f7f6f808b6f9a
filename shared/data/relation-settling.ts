/**
 * What a delete, restore or purge of a node does to the relations about it in other partitions: each of
 * those items stops (delete) or starts again (restore) being counted, or goes (purge), with its end's count
 * in the same transaction, conditioned on the item as read and on the node still being deleted (or live).
 * Items are settled in transactions of SETTLE_BATCH; a batch that meets a change is settled item by item.
 *
 * A delete settles after its commits (a deleted node takes no new link, so the set it reads is complete);
 * if the request is cut off before it finishes, counts of related objects still include the deleted node
 * until it is restored (which settles again) or purged (which removes the items and their counts).
 */
import { failedConditions } from './conditional-writes.ts';
import { nodeKey } from './keys.ts';
import { batchGetItems } from './reads.ts';
import {
  asRead,
  countChange,
  countUpdateItems,
  findRelation,
  findRelationsOf,
  keyOf,
  mirrorOf,
  type RelationCountDeltas,
  relationItem,
  relationOf,
  type StoredRelation,
  tableName,
  transact,
} from './relation-repository.ts';

const SETTLE_BATCH = 25;

type Change = { before: StoredRelation; after: StoredRelation | null };

function itemsOf(changes: Change[], nodeId: string, nodeDeleted: boolean, TableName: string) {
  const deltas: RelationCountDeltas = new Map();
  const writes = changes.map(({ before, after }) => {
    countChange(deltas, before, after);
    const condition = asRead(before);
    return after
      ? { Put: { TableName, Item: relationItem(after), ...condition } }
      : { Delete: { TableName, Key: keyOf(before), ...condition } };
  });
  return [
    ...writes,
    {
      ConditionCheck: {
        TableName,
        Key: nodeKey(nodeId),
        ConditionExpression: 'deleted = :deleted',
        ExpressionAttributeValues: { ':deleted': nodeDeleted },
      },
    },
    ...countUpdateItems(deltas, TableName),
  ];
}

/** The other ends' items about `nodeId`, as they are now (strongly consistent). */
async function mirrorsOf(nodeId: string, nodeType: string): Promise<StoredRelation[]> {
  const own = await findRelationsOf(nodeId, nodeType);
  if (own.length === 0) return [];
  // One BatchGet (100 keys a call) rather than one read per relation.
  const items = await batchGetItems(
    own.map((r) => keyOf(mirrorOf(r))),
    { consistent: true },
  );
  return items.map(relationOf);
}

async function apply(
  nodeId: string,
  nodeType: string,
  nodeDeleted: boolean,
  change: (mirror: StoredRelation) => StoredRelation | null | undefined,
): Promise<void> {
  const TableName = tableName();
  const plan = (mirrors: StoredRelation[]) =>
    mirrors.flatMap((before): Change[] => {
      const after = change(before);
      return after === undefined ? [] : [{ before, after }];
    });
  const changes = plan(await mirrorsOf(nodeId, nodeType));
  for (let start = 0; start < changes.length; start += SETTLE_BATCH) {
    const batch = changes.slice(start, start + SETTLE_BATCH);
    try {
      await transact(itemsOf(batch, nodeId, nodeDeleted, TableName));
    } catch (error) {
      const failed = failedConditions(error);
      // The node changed state: whoever changed it settles from now on.
      if (failed.includes(batch.length)) return;
      if (failed.length === 0) throw error;
      // An item changed meanwhile (a link removed, a kind added): settle each as it is now.
      for (const { before } of batch) {
        const now = await findRelation(keyOf(before));
        const after = now && change(now);
        if (!now || after === undefined) continue;
        try {
          await transact(itemsOf([{ before: now, after }], nodeId, nodeDeleted, TableName));
        } catch (single) {
          if (failedConditions(single).length === 0) throw single;
        }
      }
    }
  }
}

const counted = (value: boolean) => (mirror: StoredRelation) =>
  mirror.counted === value ? undefined : { ...mirror, counted: value, revision: mirror.revision + 1 };

/** `node` was deleted: the relations about it stop counting. */
export const settleDeleted = (nodeId: string, nodeType: string) =>
  apply(nodeId, nodeType, true, counted(false));

/** `node` was restored: the relations about it count again. */
export const settleRestored = (nodeId: string, nodeType: string) =>
  apply(nodeId, nodeType, false, counted(true));

/** `node` is purged: the items about it in other partitions go (its own go with its partition). */
export const purgeRelationsAbout = (nodeId: string, nodeType: string) =>
  apply(nodeId, nodeType, true, () => null);

/** Settles many nodes, a few at a time. */
export async function settleAll(
  nodes: { nodeId: string; nodeType: string }[],
  settle: (nodeId: string, nodeType: string) => Promise<void>,
): Promise<void> {
  for (let start = 0; start < nodes.length; start += 8) {
    await Promise.all(nodes.slice(start, start + 8).map((n) => settle(n.nodeId, n.nodeType)));
  }
}
