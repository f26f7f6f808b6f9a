/**
 * Edges restored from the trash end where their tasks are now. A live task an edge ends on may have been
 * moved or resized while the edge was in the trash (its update carried only its live edges along), so that
 * end is carried from the box the task had when the edge was trashed (its version then, from its history)
 * to the box it has now, as an update carries it (domain/edge-ports.ts).
 */
import { findNode } from '#shared/data/node-repository.ts';
import { versionsPage } from '#shared/data/version-repository.ts';
import { portsCarried, sameBox } from '#shared/domain/edge-ports.ts';
import type { Node } from '#shared/domain/node.ts';
import { type TaskFields, taskFieldsOf } from '#shared/domain/node-kinds/task.ts';
import type { StoredEdge } from '#shared/domain/process-diagram.ts';

interface Moved {
  before: TaskFields;
  after: TaskFields;
}

/** The version of a node written last at or before `at`, from the newest down (null: none that old). */
async function versionAt(current: Node, at: string): Promise<Node | null> {
  if (current.modificationDate <= at) return current;
  let after: string | undefined;
  do {
    const page = await versionsPage(current.nodeId, 25, after);
    const then = page.versions.find((version) => version.modificationDate <= at);
    if (then) return then;
    after = page.next;
  } while (after);
  return null;
}

/** How live task `taskId` moved since `at`: null when it did not (or is no live task). */
async function movedSince(taskId: string, at: string): Promise<Moved | null> {
  const current = await findNode(taskId);
  if (!current || current.deleted || current.nodeType !== 'TASK') return null;
  const trashedWith = await versionAt(current, at);
  if (!trashedWith) return null;
  const moved = { before: taskFieldsOf(trashedWith.fields), after: taskFieldsOf(current.fields) };
  return sameBox(moved.before, moved.after) ? null : moved;
}

/**
 * `edges`, trashed at `trashedAt`, with the ends on tasks that stayed live (not among `restoring`) carried to
 * where those tasks are now.
 */
export async function withPortsOfLiveTasks(
  edges: StoredEdge[],
  restoring: ReadonlySet<string>,
  trashedAt: string,
): Promise<StoredEdge[]> {
  const liveEnds = [...new Set(edges.flatMap((edge) => [edge.sourceNodeId, edge.targetNodeId]))].filter(
    (taskId) => !restoring.has(taskId),
  );
  const moves = new Map(
    await Promise.all(liveEnds.map(async (taskId) => [taskId, await movedSince(taskId, trashedAt)] as const)),
  );
  return edges.map((edge) => {
    let carried = edge;
    for (const taskId of new Set([edge.sourceNodeId, edge.targetNodeId])) {
      const moved = moves.get(taskId);
      if (moved) carried = { ...carried, ...portsCarried(carried, taskId, moved.before, moved.after) };
    }
    return carried;
  });
}
