/**
 * The version an action is about (spec §2.6), as it stands when the action is read: on the latest version,
 * the version it was assigned on; on the next published version, the first version published after the
 * assignment (null until then); on the latest published version, the one published now (null if none).
 */
import { findNodes } from '#shared/data/node-repository.ts';
import { firstPublishedVersionSince } from '#shared/data/published-versions.ts';
import type { StoredAction } from '#shared/domain/action.ts';
import { type Node, versionIdTime } from '#shared/domain/node.ts';

export async function withTargetVersions(actions: StoredAction[]): Promise<StoredAction[]> {
  const following = actions.filter(
    (a) => a.onLatestPublished || (a.onNextPublished && !a.targetNodeVersionId),
  );
  if (following.length === 0) return actions;
  const targetIds = [...new Set(following.map((a) => a.targetNode.nodeId))];
  const published = new Map(
    (await findNodes(targetIds, { copy: 'PUBLISHED' }))
      .filter((node) => !node.deleted)
      .map((node) => [node.nodeId, node]),
  );
  return Promise.all(
    actions.map(async (action) => {
      const target = action.onLatestPublished
        ? published.get(action.targetNode.nodeId)
        : action.onNextPublished && !action.targetNodeVersionId
          ? await nextPublished(action, published.get(action.targetNode.nodeId))
          : undefined;
      if (!following.includes(action)) return action;
      return {
        ...action,
        targetNodeVersionId: target?.nodeVersionId ?? null,
        targetVersion: target?.version ?? null,
      };
    }),
  );
}

/** The first version published since the action was assigned: kept in the history, or the one published now. */
async function nextPublished(
  action: StoredAction,
  publishedNow: Node | undefined,
): Promise<Node | undefined> {
  const since = Date.parse(action.creationDate);
  const replaced = await firstPublishedVersionSince(action.targetNode.nodeId, since);
  if (replaced) return replaced;
  const now = publishedNow && versionIdTime(publishedNow.nodeVersionId);
  return now !== undefined && now >= since ? publishedNow : undefined;
}
