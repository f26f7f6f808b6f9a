/**
 * What a caller may read, as the few subtrees it is made of: every environment for a system
 * administrator; otherwise the environments and folders granted to them, minus those inside another
 * granted one. Lists read these subtrees' partitions and add up these roots' counts.
 *
 * Which partitions to read needs only where the roots are, and a warm instance remembers that, so a list
 * reads the roots beside their partitions instead of before them:
 * - where a granted object sits never changes (objects do not move);
 * - the environments' ids are remembered, and checked on every list against the library's index,
 *   beside the page: a list that missed an environment created since is read again with the new ones
 *   (one list in a while pays the round trip), so lists are as fresh as the index, as without memory.
 * The roots themselves are read on every list, so one deleted meanwhile never counts in a total.
 */

import { config, perConfig } from '#shared/config/index.ts';
import { listPartition } from '#shared/data/list-indexes.ts';
import { type ListEntry, listEntries } from '#shared/data/list-repository.ts';
import { findNodes } from '#shared/data/node-repository.ts';
import type { Node } from '#shared/domain/node.ts';
import type { Caller } from '#shared/domain/user.ts';
import { awaitedLater } from './awaited-later.ts';

/** The readable part of one environment: all of it, or the subtrees of some of its folders. */
export interface ReadableEnvironment {
  environmentId: string;
  /** The granted folders; absent when the whole environment is readable. */
  folders?: string[];
}

export interface ReadableRoots {
  /** The roots' ids, known first: their partitions and counts can be read while the roots are. */
  rootIds: string[];
  /** The roots themselves (environments or folders), disjoint subtrees, live ones only. */
  roots: Promise<Node[]>;
  environments: ReadableEnvironment[];
  /**
   * False when the remembered environments turned out to miss one the library's index has now: what was
   * read with them is incomplete, read again with `readableRoots(caller, { fresh: true })`.
   */
  current: Promise<boolean>;
}

/** Environments are few; a system administrator's roots are all of them. */
const MAX_ENVIRONMENTS = 10_000;

/** Where an object sits: all a list needs to know about a granted root before reading it. */
type Placement = Pick<Node, 'nodeId' | 'nodeType' | 'environmentId' | 'ancestorIds'>;

/** An instance serves a bounded number of granted objects; beyond it the oldest are forgotten. */
const MAX_PLACEMENTS = 10_000;

/** Per stack (one process may run more than one: the embedded stack, in tests). */
const memory = perConfig(() => ({
  placements: new Map<string, Placement>(),
  environmentIds: undefined as string[] | undefined,
}));

function rememberPlacement({ nodeId, nodeType, environmentId, ancestorIds }: Node): void {
  const { placements } = memory();
  placements.set(nodeId, { nodeId, nodeType, environmentId, ancestorIds });
  if (placements.size > MAX_PLACEMENTS) {
    const oldest = placements.keys().next().value;
    if (oldest !== undefined) placements.delete(oldest);
  }
}

/** Reads the given roots, live ones only (not awaited by every caller). */
const liveRoots = (read: Promise<Node[]>): Promise<Node[]> =>
  awaitedLater(read.then((nodes) => nodes.filter((node) => !node.deleted)));

/** The environments' entries in the library's index partition. */
async function environmentEntries(): Promise<ListEntry[]> {
  const entries: ListEntry[] = [];
  const libraryChildren = [{ scope: 'parent' as const, partition: listPartition.parent(null) }];
  for await (const entry of listEntries(libraryChildren, {}, { sortKey: 'nodeId', order: 'ASC' }, 100)) {
    entries.push(entry);
    if (entries.length >= MAX_ENVIRONMENTS) break;
  }
  return entries;
}

const wholeEnvironments = (rootIds: string[], roots: Promise<Node[]>, current: Promise<boolean>) => ({
  rootIds,
  roots,
  environments: rootIds.map((environmentId) => ({ environmentId })),
  current,
});

/**
 * Every environment: their ids from this instance's memory, checked against the library's index beside
 * the list (or, the first time, read from the index first). The environments themselves (a deleted one
 * may linger in the index a moment) are read beside the partitions.
 */
async function allEnvironments(fresh: boolean): Promise<ReadableRoots> {
  const remembered = memory();
  const known = fresh ? undefined : remembered.environmentIds;
  if (known) {
    const check = awaitedLater(
      environmentEntries().then((entries) => {
        const ids = entries.map((entry) => entry.nodeId);
        remembered.environmentIds = ids;
        const had = new Set(known);
        return ids.every((id) => had.has(id));
      }),
    );
    return wholeEnvironments(known, liveRoots(findNodes(known, { consistent: false })), check);
  }
  const entries = await environmentEntries();
  const ids = entries.map((entry) => entry.nodeId);
  remembered.environmentIds = ids;
  return wholeEnvironments(ids, liveRoots(findNodes(ids, { consistent: false })), Promise.resolve(true));
}

/** The granted objects not inside another granted one, by environment. */
function grantedRoots(placed: readonly Placement[]): {
  rootIds: string[];
  environments: ReadableEnvironment[];
} {
  const granted = new Set(placed.map((node) => node.nodeId));
  const roots = placed.filter((node) => !(node.ancestorIds ?? []).some((id) => granted.has(id)));
  const byEnvironment = new Map<string, ReadableEnvironment>();
  for (const root of roots) {
    const environmentId = root.environmentId;
    if (root.nodeType === 'ENVIRONMENT') {
      byEnvironment.set(environmentId, { environmentId });
      continue;
    }
    const readable = byEnvironment.get(environmentId) ?? { environmentId, folders: [] };
    if (readable.folders) readable.folders.push(root.nodeId);
    byEnvironment.set(environmentId, readable);
  }
  return { rootIds: roots.map((root) => root.nodeId), environments: [...byEnvironment.values()] };
}

export async function readableRoots(
  caller: Caller,
  { fresh = false }: { fresh?: boolean } = {},
): Promise<ReadableRoots> {
  // With SESSION_RECHECK_SECONDS=0 an instance remembers nothing of a caller: nor does it here.
  const remembers = config().sessionRecheckSeconds > 0 && !fresh;
  if (caller.systemAdmin) return allEnvironments(!remembers);
  const grantedIds = Object.keys(caller.grants);
  const { placements } = memory();
  const placed = grantedIds.map((id) => placements.get(id));
  if (remembers && placed.every((placement) => placement !== undefined)) {
    // A deleted grant's subtree is deleted with it: its partition answers nothing, and its root is left
    // out of the totals once read.
    const structure = grantedRoots(placed);
    return { ...structure, roots: liveRoots(findNodes(structure.rootIds)), current: Promise.resolve(true) };
  }
  const nodes = await findNodes(grantedIds);
  for (const node of nodes) rememberPlacement(node);
  const live = nodes.filter((node) => !node.deleted);
  const structure = grantedRoots(live);
  const rootIds = new Set(structure.rootIds);
  return {
    ...structure,
    roots: Promise.resolve(live.filter((node) => rootIds.has(node.nodeId))),
    current: Promise.resolve(true),
  };
}
