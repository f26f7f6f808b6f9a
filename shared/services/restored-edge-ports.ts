/**
 * Edges brought back from the trash end where their tasks are now. A task an edge ends on may have been
 * moved or resized since the edge was trashed (an update carries only a task's live edges along), and then
 * perhaps deleted itself: each end is carried from the box its task had when the edge was trashed (its
 * version then, from its history) to the box it has now, live or as its delete left it, as an update
 * carries it (domain/edge-ports.ts).
 */
import { findNodes } from '#shared/data/node-repository.ts';
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

/** How task `current` moved since `at`, to where it is now or was deleted: null when it did not. */
async function movedSince(current: Node, at: string): Promise<Moved | null> {
  if (current.nodeType !== 'TASK') return null;
  const trashedWith = await versionAt(current, at);
  if (!trashedWith) return null;
  const moved = { before: taskFieldsOf(trashedWith.fields), after: taskFieldsOf(current.fields) };
  return sameBox(moved.before, moved.after) ? null : moved;
}

/**
 * `edges`, trashed at `trashedAt` with the tasks `restoring` brings back (as they were then), with their
 * ends on the other tasks carried to where those are now; and which of those tasks are deleted.
 */
export async function withPortsOfTasksNow(
  edges: StoredEdge[],
  restoring: ReadonlySet<string>,
  trashedAt: string,
): Promise<{ edges: StoredEdge[]; deletedEnds: Set<string> }> {
  const others = [...new Set(edges.flatMap((edge) => [edge.sourceNodeId, edge.targetNodeId]))].filter(
    (taskId) => !restoring.has(taskId),
  );
  const ends = others.length > 0 ? await findNodes(others) : [];
  const moves = new Map(
    await Promise.all(ends.map(async (end) => [end.nodeId, await movedSince(end, trashedAt)] as const)),
  );
  const carried = edges.map((edge) => {
    let moved = edge;
    for (const taskId of new Set([edge.sourceNodeId, edge.targetNodeId])) {
      const move = moves.get(taskId);
      if (move) moved = { ...moved, ...portsCarried(moved, taskId, move.before, move.after) };
    }
    return moved;
  });
  return { edges: carried, deletedEnds: new Set(ends.filter((end) => end.deleted).map((end) => end.nodeId)) };
}
