/**
 * A task is part of its process's diagram: one created, deleted or restored on its own (through /items)
 * moves the process to its next version, as the diagram's routes do. Only the functions that create,
 * delete and restore objects load this, and the process commit with it.
 */
import { findNode } from '#shared/data/node-repository.ts';
import { NotFoundError } from '#shared/domain/errors.ts';
import type { Node } from '#shared/domain/node.ts';
import type { Caller } from '#shared/domain/user.ts';
import { commitToProcess } from './process-changes.ts';

/** Creates `task` under `process` in one commit with the process's next version (raced as the diagram routes). */
export async function createTaskInDiagram(caller: Caller, process: Node, task: Node): Promise<void> {
  await commitToProcess(caller, process, [{ kind: 'create', node: task }]);
}

/**
 * After a task's own delete or restore committed, the process's next version, raced like the diagram's
 * routes (many tasks restored at once each move it once). Following the task's commit, a process changed
 * meanwhile never fails the delete or restore; one deleted meanwhile has no next version to move to.
 */
export async function moveProcessOfTask(caller: Caller, task: Node | undefined): Promise<void> {
  if (task?.nodeType !== 'TASK' || !task.parentId) return;
  const process = await findNode(task.parentId);
  if (!process || process.deleted || process.nodeType !== 'PROCESS') return;
  try {
    await commitToProcess(caller, process, [], { completesRequest: false });
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
  }
}
