/**
 * What a process holds at most (DIAGRAM_LIMITS), checked before a change adds to it: tasks and edges
 * created (by the diagram's routes, /items or a BPMN import) or restored from the trash.
 */
import { findEdges } from '#shared/data/edge-repository.ts';
import { readCounts, sumCounts } from '#shared/data/node-counts.ts';
import { DIAGRAM_LIMITS } from '#shared/domain/diagram-limits.ts';
import { ConflictError } from '#shared/domain/errors.ts';

const TASK_TYPE: ReadonlySet<string> = new Set(['TASK']);

/** A 409 when `adding` more to the `has` a process holds would pass `limit` (nothing is written). */
function refusePastLimit(
  code: string,
  things: 'tasks' | 'edges',
  processId: string,
  has: number,
  adding: number,
  limit: number,
): void {
  if (has + adding <= limit) return;
  throw new ConflictError(
    code,
    `Process ${processId} has ${has} ${things}; ${adding} more would take it past ${limit}, the most a process holds`,
    { limit, [things]: has },
  );
}

/**
 * Adding `adding` tasks may not take process `processId` past DIAGRAM_LIMITS.tasksPerProcess. Judged on the
 * counts as read: changes racing each other can pass it by what they add together.
 */
export async function refuseTooManyTasks(processId: string, adding: number): Promise<void> {
  if (adding === 0) return;
  const counts = (await readCounts([processId])).get(processId) ?? {};
  const has = sumCounts(counts, 'k', TASK_TYPE);
  refusePastLimit('TOO_MANY_TASKS', 'tasks', processId, has, adding, DIAGRAM_LIMITS.tasksPerProcess);
}

/**
 * Adding `adding` edges may not take process `processId` past DIAGRAM_LIMITS.edgesPerProcess. Edges have no
 * count kept: the process's edges are read as the diagram reads them (a consistent Query of its partition,
 * about 1.3 MB at the limit), only when a change adds some. Judged on the edges as read, as tasks are on
 * their counts: changes racing each other can pass it by what they add together.
 */
export async function refuseTooManyEdges(processId: string, adding: number): Promise<void> {
  if (adding === 0) return;
  const has = (await findEdges(processId)).length;
  refusePastLimit('TOO_MANY_EDGES', 'edges', processId, has, adding, DIAGRAM_LIMITS.edgesPerProcess);
}
