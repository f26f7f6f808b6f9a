/**
 * The trash (spec §3): each delete puts its subtree there (node-service's deleteNode). Those who may delete
 * the subtree's root list it (trash-list.ts), restore it as it was (under its parent, which must be live), or
 * purge it for good with its files, within TRASH_RETENTION_DAYS.
 */
import {
  GRANT_PREFIX,
  nodeKey,
  trashedChildPrefix,
  trashedEdgePrefix,
  trashPointerKey,
} from '#shared/data/keys.ts';
import { findLiveChildIds, findNode, findNodes } from '#shared/data/node-repository.ts';
import {
  commitBatches,
  commitNodeWrites,
  type NodeWrite,
  NodeWriteConflict,
  releaseDeleteLease,
} from '#shared/data/node-write-path.ts';
import { mayHaveRelations } from '#shared/data/relation-repository.ts';
import { purgeRelationsAbout, settleAll, settleRestored } from '#shared/data/relation-settling.ts';
import {
  childrenDeletedOnTheirOwn,
  deletedOnTheirOwn,
  deleteItems,
  findTrashEntry,
  findTrashPointer,
  partitionItems,
  type TrashPointer,
  trashedChildIds,
  trashedEdges,
} from '#shared/data/trash-repository.ts';
import { deleteGrant } from '#shared/data/user-repository.ts';
import { findVersionsOf } from '#shared/data/version-repository.ts';
import { ConflictError, ForbiddenError, NotFoundError } from '#shared/domain/errors.ts';
import { type Node, timestamp } from '#shared/domain/node.ts';
import type { StoredFileInfo } from '#shared/domain/node-kinds/document.ts';
import { can, canReadParentOf } from '#shared/domain/permissions.ts';
import type { Caller } from '#shared/domain/user.ts';
import { CONTAINER_TYPES, DELETE_LEASE_MS, nextVersionOf } from './node-service.ts';
import { refuseTooManyEdges, refuseTooManyTasks } from './process-limits.ts';
import { withPortsOfTasksNow } from './restored-edge-ports.ts';

const notInTrash = (nodeId: string) =>
  new NotFoundError(
    'NODE_NOT_FOUND',
    `Object ${nodeId} is not in the trash (never deleted, restored, purged or expired)`,
  );

const purgeUnderWay = (nodeId: string) =>
  new ConflictError(
    'PURGE_UNDER_WAY',
    `A purge of ${nodeId} has begun, so it can no longer be restored: repeat the purge to finish it`,
  );

const restoreUnderWay = (nodeId: string) =>
  new ConflictError(
    'RESTORE_UNDER_WAY',
    `A restore of ${nodeId} has begun and is not finished, so it cannot be purged: repeat the restore to ` +
      'finish it (its parent first, if that is deleted), then delete and purge it',
  );

/**
 * The deleted root and its trash pointer, for a caller who may delete it: restorable within the
 * retention (its trash entry) unless a purge has begun, purgeable as long as it is in the trash at all.
 */
async function inTrash(
  caller: Caller,
  rootId: string,
  purpose: 'restore' | 'purge',
): Promise<{ root: Node; pointer: TrashPointer }> {
  // The root is live again only while a restore that was cut short is being finished.
  const [root, pointer, entry] = await Promise.all([
    findNode(rootId),
    findTrashPointer(rootId),
    purpose === 'restore' ? findTrashEntry(rootId, Date.now()) : null,
  ]);
  if (!root || !pointer || (purpose === 'restore' && !entry)) throw notInTrash(rootId);
  // Whoever may not even read it learns nothing of it.
  if (!can(caller, root, 'read')) throw notInTrash(rootId);
  if (!can(caller, root, 'delete'))
    throw new ForbiddenError(`Restoring or purging ${rootId} needs the environment admin role`);
  // As deleting one: an environment admin may not bring back, or do away with, the environment itself.
  if (root.nodeType === 'ENVIRONMENT' && !caller.systemAdmin)
    throw new ForbiddenError('Only system administrators restore or purge environments');
  if (purpose === 'restore' && pointer.purgeStartedAt) throw purgeUnderWay(rootId);
  return { root, pointer };
}

/**
 * The subtree a delete of `root` took, level by level from the root, as its trash links have it. With
 * `throughLive` (a restore), also below the live folders of the subtree: a restore cut short brought them
 * back, and children of theirs may still be in the trash.
 */
async function trashedSubtree(root: Node, { throughLive = false } = {}): Promise<Node[]> {
  const found: Node[] = [];
  for (let level = [root]; level.length > 0; ) {
    found.push(...level);
    const childIds = (
      await Promise.all(
        level.map(async (node) => [
          ...(await trashedChildIds(node.nodeId, root.nodeId)),
          ...(throughLive && !node.deleted ? await findLiveChildIds(node.nodeId, CONTAINER_TYPES) : []),
        ]),
      )
    ).flat();
    level = childIds.length > 0 ? await findNodes(childIds) : [];
  }
  return found;
}

/**
 * A restore repeated after one cut short: a folder it had brought back may have been deleted on its own
 * since, with objects of this delete still in the trash below it. They come back only under it, live, so
 * it is restored first (409 PARENT_DELETED naming it); finishing without them would end this delete's
 * trash entry and leave them where nothing can restore or purge them.
 */
async function refuseStrandedBelow(found: Node[], rootId: string): Promise<void> {
  const live = found.filter((node) => !node.deleted && CONTAINER_TYPES.has(node.nodeType));
  for (const node of live) {
    for (const deletedId of await childrenDeletedOnTheirOwn(node.nodeId, rootId)) {
      if ((await trashedChildIds(deletedId, rootId)).length === 0) continue;
      throw new ConflictError(
        'PARENT_DELETED',
        `${deletedId}, brought back by an earlier restore of ${rootId}, was deleted since, and objects of ` +
          `this delete wait below it: restore ${deletedId} first, then ${rootId} again`,
        { parentId: deletedId },
      );
    }
  }
}

/**
 * Each restore commit needs the parents of the nodes it brings back live and not being deleted (a lease
 * of a delete that began since, checked on their counts, which the commit updates anyway), but for those it
 * brings back itself: a delete that read a folder's children before a commit put more under it fails that
 * commit, so what the restore brought back is either deleted with the folder or live under a live parent.
 */
function parentsLive(writes: NodeWrite[], at: string): NodeWrite[] {
  const restored = new Set(writes.flatMap((w) => (w.kind === 'restore' ? [w.node.nodeId] : [])));
  const parents = new Set(
    writes.flatMap((w) =>
      w.kind === 'restore' && w.node.parentId && !restored.has(w.node.parentId) ? [w.node.parentId] : [],
    ),
  );
  return [...parents].map((nodeId) => ({ kind: 'requireLive', nodeId, at }));
}

/** How many of `keys` there are of each. */
function tally(keys: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
  return counts;
}

/**
 * Of tasks deleted and not coming back with a restore (each deleted on its own: a task is deleted with
 * others only with its process, which a restore of its edges needs live), those that are the root of their
 * own trash entry, which keeps an edge to them until they are restored or purged.
 */
async function ownTrashRoots(deleted: ReadonlySet<string>): Promise<Set<string>> {
  const roots = await Promise.all([...deleted].map(async (id) => ((await findTrashPointer(id)) ? [id] : [])));
  return new Set(roots.flat());
}

/**
 * Tasks and edges come back into their processes only as far as a process holds them, as when they are
 * added: a process's task counts and edges are its live ones, so one restored with its own tasks and edges
 * has room for them all, while a task restored into a process that has gained tasks or edges since may not
 * take it past a limit.
 */
async function refusePastProcessLimits(restoring: Node[], edges: { processId: string }[]): Promise<void> {
  const tasksBack = tally(
    restoring.flatMap((node) => (node.nodeType === 'TASK' && node.parentId ? [node.parentId] : [])),
  );
  const edgesBack = tally(edges.map((edge) => edge.processId));
  await Promise.all([
    ...[...tasksBack].map(([processId, adding]) => refuseTooManyTasks(processId, adding)),
    ...[...edgesBack].map(([processId, adding]) => refuseTooManyEdges(processId, adding)),
  ]);
}

/**
 * The parent of a trashed root as a refusal names it: by id only to whoever may read it (as every view
 * shows it), else without saying which it is.
 */
function parentAsNamedTo(caller: Caller, root: Node) {
  if (!root.parentId || !canReadParentOf(caller, root)) {
    return { text: 'The parent', extension: {}, mayRestore: false };
  }
  const parent = { nodeId: root.parentId, ancestorIds: root.ancestorIds.slice(0, -1) };
  return {
    text: `The parent ${root.parentId}`,
    extension: { parentId: root.parentId },
    mayRestore: can(caller, parent, 'delete'),
  };
}

/**
 * Brings a deleted subtree back as it was: each node live again under its parent, counted, in lists, its
 * published copy and its edges back. Commits go from the root down, so a restore cut short leaves live nodes
 * under live parents, and repeating it finishes the rest; the trash entry goes with the last commit.
 */
export async function restoreSubtree(caller: Caller, rootId: string): Promise<Node[]> {
  const {
    root,
    pointer: { deletedAt: trashed },
  } = await inTrash(caller, rootId, 'restore');
  const parent = root.parentId ? await findNode(root.parentId) : null;
  const theParent = parentAsNamedTo(caller, root);
  if (root.parentId && !parent) {
    // Purged since (a purge takes what was deleted from its subtree earlier along, unless a restore of it
    // was under way then): nothing can bring the parent back.
    throw new ConflictError(
      'PARENT_PURGED',
      `${theParent.text} of ${rootId} was purged: ${rootId} cannot come back, only be purged`,
      theParent.extension,
    );
  }
  if (root.parentId && parent?.deleted) {
    throw new ConflictError(
      'PARENT_DELETED',
      `${theParent.text} of ${rootId} is deleted: ${theParent.mayRestore ? 'restore it first' : 'whoever may restore it must do so first'}`,
      theParent.extension,
    );
  }
  const at = timestamp();
  const by = caller.principal.principalId;
  const found = await trashedSubtree(root, { throughLive: true });
  await refuseStrandedBelow(found, rootId);
  const subtree = found.filter((node) => node.deleted);
  // A restore is a write: like any other it starts the next draft (a published object's published copy
  // comes back as it was, and its working copy is in progress until the next publish).
  const restored = subtree.map((node): Node => ({ ...nextVersionOf(node, caller, at), deleted: false }));
  const steps = await Promise.all(
    subtree.map(async (node, i) => {
      const writes: NodeWrite[] = [
        {
          kind: 'restore',
          node: restored[i] as Node,
          previous: node,
          expectedNodeVersionId: node.nodeVersionId,
          rootId,
        },
        ...(node.publishedNodeVersionId ? [{ kind: 'restorePublished' as const, nodeId: node.nodeId }] : []),
      ];
      return { writes };
    }),
  );
  const restoring = new Set(subtree.map((node) => node.nodeId));
  // The processes whose edges this delete kept: each read once, however many of its tasks come back.
  const processIds = new Set(
    subtree.flatMap((node) =>
      node.nodeType === 'PROCESS' ? [node.nodeId] : node.nodeType === 'TASK' ? [node.parentId as string] : [],
    ),
  );
  const edgeSteps = await Promise.all(
    [...processIds].map(async (processId) => {
      const { edges, deletedEnds } = await withPortsOfTasksNow(
        await trashedEdges(processId, rootId),
        restoring,
        trashed,
      );
      const stillDeleted = await ownTrashRoots(deletedEnds);
      return edges.map((edge) => {
        // An edge to a task deleted on its own since waits in that task's trash, to come back with it.
        const toRootId = [edge.sourceNodeId, edge.targetNodeId].find((id) => stillDeleted.has(id));
        return toRootId
          ? { writes: [{ kind: 'retrashEdge' as const, processId, rootId, toRootId, edge }] }
          : { writes: [{ kind: 'restoreEdge' as const, processId, rootId, edge, stamp: { by, at } }] };
      });
    }),
  );
  const edgeMoves = edgeSteps.flat();
  await refusePastProcessLimits(
    subtree,
    edgeMoves.flatMap((step) => step.writes.filter((write) => write.kind === 'restoreEdge')),
  );
  const plan = [
    ...steps,
    ...edgeMoves,
    { writes: [{ kind: 'untrash' as const, deletedAt: trashed, rootId }] },
  ];
  // Each restored node takes creates again once it is live (its delete's lease is lifted).
  const deletedAt = new Map(subtree.map((node) => [node.nodeId, node.modificationDate]));
  try {
    for await (const batch of commitBatches(plan)) {
      const writes = batch.flatMap((step) => step.writes);
      await commitNodeWrites([...parentsLive(writes, at), ...writes], {
        completesRequest: batch.includes(plan.at(-1) as never),
      });
      // Only containers were leased (collectSubtree in node-service).
      const live = batch.flatMap((step) =>
        step.writes.flatMap((w) =>
          w.kind === 'restore' && CONTAINER_TYPES.has(w.node.nodeType) ? [w.node.nodeId] : [],
        ),
      );
      await Promise.all(
        live.map((nodeId) =>
          releaseDeleteLease(
            nodeId,
            new Date(Date.parse(deletedAt.get(nodeId) as string) + DELETE_LEASE_MS).toISOString(),
          ),
        ),
      );
    }
  } catch (error) {
    // The root comes back in the first commit, which fails if a purge began first (beginPurge).
    if (error instanceof NodeWriteConflict && error.failed.some((w) => w.kind === 'restore')) {
      if ((await findTrashPointer(rootId))?.purgeStartedAt) throw purgeUnderWay(rootId);
    }
    const leased = error instanceof NodeWriteConflict && error.failed.find((w) => w.kind === 'requireLive');
    if (leased && leased.nodeId === root.parentId) {
      throw new ConflictError(
        'PARENT_DELETED',
        `${theParent.text} of ${rootId} is being deleted`,
        theParent.extension,
      );
    }
    // A folder the restore brought back is being deleted (with the root, or the root again), or the root
    // was deleted again before the last commit (its trash pointer names that delete).
    if (leased || (error instanceof NodeWriteConflict && error.failed.some((w) => w.kind === 'untrash'))) {
      throw new ConflictError(
        'PARENT_DELETED',
        `Part of ${rootId} was deleted again while it was restored: what the restore brought back is in that ` +
          `delete's answer, the rest is still in the trash; repeat the restore (its parent's first, if that ` +
          'is deleted) to finish it',
        leased ? { parentId: leased.nodeId } : {},
      );
    }
    if (error instanceof NodeWriteConflict) {
      throw new ConflictError(
        'WRITE_CONFLICT',
        'The subtree changed while it was restored; repeat the restore to finish it',
      );
    }
    throw error;
  }
  // Only nodes a link marked have relations to count again (a deleted node takes no new link).
  await settleAll(restored.filter(mayHaveRelations), settleRestored);
  return restored;
}

/**
 * Marks the purge of the subtree under `root` as begun, unless a restore of it has begun: restores and
 * purges exclude each other on the trash pointer and the root, so they never both take the same objects.
 */
async function beginPurge(root: Node, deletedAt: string): Promise<void> {
  // The first commit of a restore makes the root live, at a new version: a root as its delete left it
  // (deleted at the moment its trash entry names) is one no restore has touched.
  if (!root.deleted || root.modificationDate !== deletedAt) throw restoreUnderWay(root.nodeId);
  try {
    await commitNodeWrites([
      {
        kind: 'beginPurge',
        rootId: root.nodeId,
        deletedAt,
        expectedNodeVersionId: root.nodeVersionId,
        at: timestamp(),
      },
    ]);
  } catch (error) {
    if (!(error instanceof NodeWriteConflict)) throw error;
    // A restore came first: it is under way, or done (the subtree left the trash).
    if (!(await findTrashPointer(root.nodeId))) throw notInTrash(root.nodeId);
    throw restoreUnderWay(root.nodeId);
  }
}

/**
 * Deletes a subtree in the trash for good: its items, versions, kept edges and links, and its files. No
 * restore of it may have begun (409 RESTORE_UNDER_WAY), and none can once the purge has. The deepest
 * objects go first and the root's working copy last, with the trash entry, so a purge cut short can be
 * repeated to finish it.
 */
export async function purgeSubtree(caller: Caller, rootId: string): Promise<void> {
  await purgeEntry(caller, rootId, true);
}

/**
 * An object deleted on its own from a subtree before the subtree's delete has a trash entry of its own,
 * which nothing could restore once its parent is purged: it is purged first, as its own purge would. One
 * that may not be purged now (a restore of it under way, gone meanwhile) is left in the trash, where a
 * restore says its parent is gone (PARENT_PURGED) and a purge of its own still takes it, and the purge
 * around it goes on. Any other failure (throttling) stops the purge around it too, which a repeat finishes:
 * the link that names this entry goes only with its parent's partition, after it.
 */
async function purgeDeletedEarlier(caller: Caller, rootId: string): Promise<void> {
  try {
    await purgeEntry(caller, rootId, false);
  } catch (error) {
    if (
      !(error instanceof ConflictError || error instanceof NotFoundError || error instanceof ForbiddenError)
    )
      throw error;
    console.info(
      JSON.stringify({
        level: 'info',
        msg: 'a trash entry deleted earlier from a purged subtree was left in the trash',
        nodeId: rootId,
        error: String(error),
      }),
    );
  }
}

async function purgeEntry(caller: Caller, rootId: string, completesRequest: boolean): Promise<void> {
  const {
    root,
    pointer: { deletedAt, purgeStartedAt },
  } = await inTrash(caller, rootId, 'purge');
  if (!purgeStartedAt) await beginPurge(root, deletedAt);
  const subtree = await trashedSubtree(root);
  const fileIds = new Set<string>();
  const bpmnFiles = new Set<string>();
  // The root's working copy and trash pointer stay for the last commit, until all else is gone.
  const keptForLast = new Set([nodeKey(rootId), trashPointerKey(rootId)].map((key) => `${key.PK} ${key.SK}`));
  for (const node of [...subtree].reverse()) {
    const items = (await partitionItems(node.nodeId)).filter(
      (item) => !keptForLast.has(`${item.PK} ${item.SK}`),
    );
    // Before the partition goes: a task's visibility rests on its process's batch records.
    for (const nestedRootId of deletedOnTheirOwn(items, rootId))
      await purgeDeletedEarlier(caller, nestedRootId);
    for (const version of [node, ...(await findVersionsOf(node.nodeId))]) {
      const fileInfo = version.fields.fileInfo as StoredFileInfo | null | undefined;
      if (fileInfo?.fileId) fileIds.add(fileInfo.fileId);
      // Each import of a process kept its file, which the versions since name.
      if (typeof version.fields.bpmnTemplateKey === 'string') bpmnFiles.add(version.fields.bpmnTemplateKey);
    }
    if (mayHaveRelations(node)) await purgeRelationsAbout(node.nodeId, node.nodeType);
    // A role on a folder that is gone is revoked from its holder's user item too, not only under the node.
    await Promise.all(
      items
        .filter((item) => String(item.SK).startsWith(GRANT_PREFIX))
        .map((item) =>
          deleteGrant(node.nodeId, String(item.SK).slice(GRANT_PREFIX.length)).catch((error: unknown) => {
            // The holder no longer has it (or no longer exists): the node's own item goes below.
            if (!(error instanceof NotFoundError)) throw error;
          }),
        ),
    );
    // The node's own partition (its relations and their counts too), and its link in its parent's trash.
    await deleteItems(items.map((item) => ({ PK: item.PK, SK: item.SK })));
  }
  // The S3 client loads only for a purge that removes files: listing and restoring never need it.
  if (fileIds.size) {
    const { deleteFile } = await import('#shared/data/file-tags.ts');
    await Promise.all([...fileIds].map((fileId) => deleteFile(fileId)));
  }
  if (bpmnFiles.size) {
    const { deleteBpmnTemplate } = await import('#shared/data/bpmn-templates.ts');
    await Promise.all([...bpmnFiles].map((key) => deleteBpmnTemplate(key)));
  }
  if (root.parentId) {
    const links = await partitionItems(root.parentId);
    const kept = [trashedChildPrefix(rootId), trashedEdgePrefix(rootId)];
    await deleteItems(
      links
        .filter((item) => kept.some((prefix) => String(item.SK).startsWith(prefix)))
        .map((item) => ({ PK: item.PK, SK: item.SK })),
    );
  }
  await commitNodeWrites(
    [
      { kind: 'purgeNode', nodeId: rootId },
      { kind: 'untrash', deletedAt, rootId },
    ],
    { completesRequest },
  );
}
