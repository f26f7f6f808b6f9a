/** A node's earlier versions (keepVersions in node-write-path.ts writes them), newest first. */

import type { Node } from '#shared/domain/node.ts';
import { nodeVersions } from './entities/nodes.ts';
import { queryPage } from './keyed-pages.ts';
import { nodeKey, nodeVersionKey, VERSION_PREFIX } from './keys.ts';
import { getItem } from './reads.ts';

export async function findVersion(nodeId: string, nodeVersionId: string): Promise<Node | null> {
  const item = await getItem(nodeVersionKey(nodeId, nodeVersionId));
  return item ? nodeVersions.fromItem(item) : null;
}

/** Up to `limit` earlier versions, newest first, from where `after` left off. */
export async function versionsPage(
  nodeId: string,
  limit: number,
  after?: string,
): Promise<{ versions: Node[]; next?: string }> {
  const page = await queryPage(
    { partition: nodeKey(nodeId).PK, sortKeyPrefix: VERSION_PREFIX, descending: true },
    limit,
    after ? { after } : {},
  );
  return {
    versions: page.items.map((item) => nodeVersions.fromItem(item)),
    ...(page.next ? { next: page.next } : {}),
  };
}

/** Every earlier version of a node (for a purge, which removes their files too). */
export async function findVersionsOf(nodeId: string): Promise<Node[]> {
  const versions: Node[] = [];
  let after: string | undefined;
  do {
    const page = await versionsPage(nodeId, 100, after);
    versions.push(...page.versions);
    after = page.next;
  } while (after);
  return versions;
}
