/**
 * What a caller may read, as the few subtrees it is made of: every environment for a system
 * administrator; otherwise the environments and folders granted to them, minus those inside another
 * granted one. Lists read these subtrees' partitions and add up these roots' counts.
 *
 * Which partitions to read needs only where the roots are, and a warm instance remembers that: where a
 * granted object sits never changes (objects do not move), and the environments' ids are remembered as
 * long as a session is (SESSION_RECHECK_SECONDS): an environment created on another instance joins this
 * instance's lists within that bound. The roots themselves are still read on every list, beside the
 * partitions, so one deleted meanwhile never counts in a total.
 */

import { config } from '#shared/config/index.ts';
import { listPartition } from '#shared/data/list-indexes.ts';
import { fetchListed, listEntries } from '#shared/data/list-repository.ts';
import { findNodes } from '#shared/data/node-repository.ts';
import type { Node } from '#shared/domain/node.ts';
import type { Caller } from '#shared/domain/user.ts';

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
}

/** Environments are few; a system administrator's roots are all of them. */
const MAX_ENVIRONMENTS = 10_000;

/** Where an object sits: all a list needs to know about a granted root before reading it. */
type Placement = Pick<Node, 'nodeId' | 'nodeType' | 'environmentId' | 'ancestorIds'>;

/** An instance serves a bounded number of granted objects; beyond it the oldest are forgotten. */
const MAX_PLACEMENTS = 10_000;
const placements = new Map<string, Placement>();
/** By table: one process may serve more than one (the embedded stack, in tests). */
const environments = new Map<string, { ids: string[]; readAtMs: number }>();

/** The table this instance's functions use, and where it is. */
const tableKey = () => `${config().dynamoDbEndpoint ?? ''} ${config().tableName}`;

function rememberPlacement({ nodeId, nodeType, environmentId, ancestorIds }: Node): void {
  placements.set(`${tableKey()} ${nodeId}`, { nodeId, nodeType, environmentId, ancestorIds });
  if (placements.size > MAX_PLACEMENTS) {
    const oldest = placements.keys().next().value;
    if (oldest !== undefined) placements.delete(oldest);
  }
}

/** An environment was created or restored here: the next list reads the environments again. */
export function forgetEnvironments(): void {
  environments.delete(tableKey());
}

const recheckMs = () => config().sessionRecheckSeconds * 1000;

/** Reads the given roots, live ones only (not awaited by every caller: no unhandled rejection). */
function liveRoots(read: Promise<Node[]>): Promise<Node[]> {
  const roots = read.then((nodes) => nodes.filter((node) => !node.deleted));
  roots.catch(() => undefined);
  return roots;
}

const wholeEnvironments = (rootIds: string[], roots: Promise<Node[]>): ReadableRoots => ({
  rootIds,
  roots,
  environments: rootIds.map((environmentId) => ({ environmentId })),
});

/**
 * Every environment. Their ids come from the library's index partition (or this instance's memory) and
 * are enough to read their partitions and counts; the environments themselves (a deleted one may linger
 * in the index a moment) are read beside.
 */
async function allEnvironments(nowMs: number): Promise<ReadableRoots> {
  const known = environments.get(tableKey());
  if (known && nowMs - known.readAtMs < recheckMs() && nowMs >= known.readAtMs) {
    return wholeEnvironments(known.ids, liveRoots(findNodes(known.ids, { consistent: false })));
  }
  const entries = [];
  const libraryChildren = [{ scope: 'parent' as const, partition: listPartition.parent(null) }];
  for await (const entry of listEntries(libraryChildren, {}, { sortKey: 'nodeId', order: 'ASC' }, 100)) {
    entries.push(entry);
    if (entries.length >= MAX_ENVIRONMENTS) break;
  }
  const ids = entries.map((entry) => entry.nodeId);
  if (recheckMs() > 0) environments.set(tableKey(), { ids, readAtMs: nowMs });
  return wholeEnvironments(ids, liveRoots(fetchListed(entries, 'DRAFT')));
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

export async function readableRoots(caller: Caller, nowMs = Date.now()): Promise<ReadableRoots> {
  if (caller.systemAdmin) return allEnvironments(nowMs);
  const grantedIds = Object.keys(caller.grants);
  const placed = grantedIds.map((id) => placements.get(`${tableKey()} ${id}`));
  if (placed.every((placement) => placement !== undefined)) {
    // A deleted grant's subtree is deleted with it: its partition answers nothing, and its root is left
    // out of the totals once read.
    const structure = grantedRoots(placed);
    return { ...structure, roots: liveRoots(findNodes(structure.rootIds)) };
  }
  const nodes = await findNodes(grantedIds);
  for (const node of nodes) rememberPlacement(node);
  const live = nodes.filter((node) => !node.deleted);
  const structure = grantedRoots(live);
  const rootIds = new Set(structure.rootIds);
  return { ...structure, roots: Promise.resolve(live.filter((node) => rootIds.has(node.nodeId))) };
}
