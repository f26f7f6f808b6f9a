/**
 * A task's edges follow it: a write that moves or resizes a task carries the ends of its edges along
 * (domain/edge-ports.ts), in the task's own commit when they fit in it.
 */
import { findEdges } from '#shared/data/edge-repository.ts';
import { commitNodeWrites, type NodeWrite, NodeWriteConflict } from '#shared/data/node-write-path.ts';
import { portsCarried, sameBox } from '#shared/domain/edge-ports.ts';
import type { Node } from '#shared/domain/node.ts';
import { taskFieldsOf } from '#shared/domain/node-kinds/task.ts';
import type { Caller } from '#shared/domain/user.ts';
import { inPool } from './in-pool.ts';

/** Edges whose ends move in the task's commit; a task with more moves them in commits of their own after. */
const CARRIED_IN_COMMIT = 80;

/** The edge writes that carry the ends of task `before`'s edges to where `after` puts it. */
export async function edgesCarried(caller: Caller, before: Node, after: Node): Promise<NodeWrite[]> {
  const processId = before.parentId;
  if (before.nodeType !== 'TASK' || !processId) return [];
  const [was, is] = [taskFieldsOf(before.fields), taskFieldsOf(after.fields)];
  if (sameBox(was, is)) return [];
  const stamp = { by: caller.principal.principalId, at: after.modificationDate };
  return (await findEdges(processId)).flatMap((edge): NodeWrite[] => {
    const ports = portsCarried(edge, before.nodeId, was, is);
    return ports ? [{ kind: 'moveEdgePorts', processId, edgeId: edge.edgeId, ports, stamp }] : [];
  });
}

/**
 * The carried edges split into those the task's commit takes, and the moves of the rest, to run once the
 * task's commit has landed: each edge on its own, one removed meanwhile left as it is (gone).
 */
export function splitCarried(carried: NodeWrite[]): { along: NodeWrite[]; after: () => Promise<void> } {
  const rest = carried.slice(CARRIED_IN_COMMIT);
  return {
    along: carried.slice(0, CARRIED_IN_COMMIT),
    after: () =>
      inPool(rest, 4, async (write) => {
        await commitNodeWrites([write]).catch((error: unknown) => {
          if (!(error instanceof NodeWriteConflict)) throw error;
        });
      }),
  };
}
