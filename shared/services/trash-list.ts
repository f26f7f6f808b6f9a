/**
 * The trash as a list (spec §3): apart from restore and purge (trash-service.ts), so listing it does not
 * load the write path at a cold start.
 */
import type { TrashEntry } from '#shared/data/entities/nodes.ts';
import { trashPage } from '#shared/data/trash-repository.ts';
import { can, canReadParentOf } from '#shared/domain/permissions.ts';
import type { Caller } from '#shared/domain/user.ts';
import { type CursorRequest, cursorPage } from './paging.ts';

const toTrashElement = (caller: Caller, entry: TrashEntry) => ({
  '@type': 'TrashElement' as const,
  nodeId: entry.nodeId,
  nodeType: entry.nodeType,
  name: entry.name,
  // A parent the caller may not read is null, as in every other view (a grant below it reveals nothing above).
  parentId: canReadParentOf(caller, entry) ? entry.parentId : null,
  deletedAt: entry.deletedAt,
  deletedByName: entry.deletedByName,
  nodes: entry.nodes,
  expiresAt: new Date(entry.expiresAtEpoch * 1000).toISOString(),
});

/** Deleted subtrees the caller may delete (and so restore or purge), newest first. */
export function listTrash(caller: Caller, query: CursorRequest) {
  return cursorPage(
    'trash',
    'deletedAt',
    query,
    async (limit, after, readSize) => {
      const page = await trashPage(readSize, after, Date.now());
      // An environment only a system administrator restores or purges (trash-service.ts), as it deletes.
      const visible = page.entries.filter(
        ({ entry }) =>
          can(caller, entry, 'delete') && (entry.nodeType !== 'ENVIRONMENT' || caller.systemAdmin),
      );
      const mine = visible.slice(0, limit);
      const afterLast = mine.at(-1)?.position;
      // page.next may be the subtree of another environment: only reading on starts there.
      const next = visible.length > limit ? afterLast : page.next;
      return {
        results: mine.map(({ entry }) => toTrashElement(caller, entry)),
        ...(next ? { next } : {}),
        ...(afterLast ? { afterLast } : {}),
      };
    },
    'DESC',
  );
}
