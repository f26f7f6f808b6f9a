/**
 * What a caller may read, as the few subtrees it is made of: every environment for a system
 * administrator; otherwise the environments and folders granted to them, minus those inside another
 * granted one. Lists read these subtrees' partitions and add up these roots' counts.
 */

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

/**
 * Every environment, from the library's index partition. Their ids are enough to read their partitions
 * and counts; the environments themselves (a deleted one may linger in the index a moment) come beside.
 */
async function allEnvironments(): Promise<ReadableRoots> {
  const entries = [];
  const libraryChildren = [{ scope: 'parent' as const, partition: listPartition.parent(null) }];
  for await (const entry of listEntries(libraryChildren, {}, { sortKey: 'nodeId', order: 'ASC' }, 100)) {
    entries.push(entry);
    if (entries.length >= MAX_ENVIRONMENTS) break;
  }
  const roots = fetchListed(entries, 'DRAFT');
  // Awaited by every list that counts, maybe after other reads: not an unhandled rejection meanwhile.
  roots.catch(() => undefined);
  const rootIds = entries.map((entry) => entry.nodeId);
  return { rootIds, roots, environments: rootIds.map((environmentId) => ({ environmentId })) };
}

export async function readableRoots(caller: Caller): Promise<ReadableRoots> {
  if (caller.systemAdmin) return allEnvironments();
  const granted = new Set(Object.keys(caller.grants));
  const nodes = (await findNodes([...granted])).filter((node) => !node.deleted);
  // A grant inside another granted subtree adds nothing to what the caller reads.
  const roots = nodes.filter((node) => !(node.ancestorIds ?? []).some((id) => granted.has(id)));
  const byEnvironment = new Map<string, ReadableEnvironment>();
  for (const root of roots) {
    const environmentId = root.environmentId;
    if (root.nodeType === 'ENVIRONMENT') {
      byEnvironment.set(environmentId, { environmentId });
      continue;
    }
    const readable = byEnvironment.get(environmentId) ?? { environmentId, folders: [] };
    readable.folders?.push(root.nodeId);
    byEnvironment.set(environmentId, readable);
  }
  return {
    rootIds: roots.map((root) => root.nodeId),
    roots: Promise.resolve(roots),
    environments: [...byEnvironment.values()],
  };
}
