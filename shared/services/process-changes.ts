/**
 * Commits a change to a process's diagram (tasks created, edges added or removed) together with the
 * process's next version, all or nothing. A change that fits one transaction is one commit; a larger one
 * (hundreds of tasks) is written as a batch (shared/data/diagram-batches.ts): staged invisible in as many
 * commits as it takes, then made visible by one final commit, or removed if the request fails. Two clients
 * changing one process at once both succeed: the loser of the race on the process's version reads it again
 * and commits once more (its own writes do not depend on that version).
 */
import { batchesOf, stagedBy } from '#shared/data/diagram-batches.ts';
import { findNode } from '#shared/data/node-repository.ts';
import {
  commitBatches,
  commitBytes,
  commitItemCount,
  commitNodeWrites,
  fitsOneCommit,
  type NodeWrite,
  NodeWriteConflict,
} from '#shared/data/node-write-path.ts';
import { ConflictError, NotFoundError, ServiceUnavailableError } from '#shared/domain/errors.ts';
import { type Node, newId, timestamp } from '#shared/domain/node.ts';
import type { Caller } from '#shared/domain/user.ts';
import { inPool } from './in-pool.ts';
import { nextVersionOf } from './node-service.ts';
import { refuseTooManyEdges, refuseTooManyTasks } from './process-limits.ts';

/** How long a change keeps trying when other changes to the process keep winning the race. */
const RACE_BUDGET_MS = 15_000;
/** A batch still open this long after it began belongs to a request that has ended (functions run ≤ 29 s). */
const ABANDONED_AFTER_MS = 60_000;
/** Staging commits run side by side, a few at a time. */
const STAGING_CONCURRENCY = 4;

const processGone = (processId: string) =>
  new NotFoundError('NODE_NOT_FOUND', `No process with nodeId ${processId}: it was deleted meanwhile`);

export interface ProcessChangeOptions {
  /** Fields of the process's own kind this change sets (an import names its BPMN file). */
  processFields?: Record<string, unknown>;
  /**
   * 'retry' (default): another change that commits first is no reason to fail, this one is read again on
   * top of it. 'fail': this change holds only for the version it read (an import into an empty process).
   */
  onRace?: 'retry' | 'fail';
  /**
   * true (default): this commit completes the request (and records its Idempotency-Key claim). false: the
   * request's own writes committed before (a task's delete or restore, which this follows).
   */
  completesRequest?: boolean;
}

/**
 * Commits `writes` with the next version of `process`; answers the process as committed. `writes` are
 * creates of its tasks, and edge puts and deletes.
 */
export async function commitToProcess(
  caller: Caller,
  process: Node,
  writes: NodeWrite[],
  options: ProcessChangeOptions = {},
): Promise<Node> {
  await Promise.all([
    refuseTooManyTasks(
      process.nodeId,
      writes.filter((write) => write.kind === 'create' && write.node.nodeType === 'TASK').length,
    ),
    refuseTooManyEdges(process.nodeId, writes.filter((write) => write.kind === 'putEdge').length),
  ]);
  const bump: NodeWrite[] = [{ kind: 'requireLive', nodeId: process.nodeId, at: timestamp() }];
  const withBump = [...writes, ...bump, versionWrite(caller, process, options)];
  if (fitsOneCommit({ items: commitItemCount(withBump), bytes: commitBytes(withBump) })) {
    return raceForVersion(caller, process, options, (next) => writes.concat(next));
  }
  return commitAsBatch(caller, process, writes, options);
}

function versionWrite(
  caller: Caller,
  process: Node,
  { processFields = {} }: ProcessChangeOptions,
): NodeWrite & { kind: 'replace' } {
  const next = nextVersionOf(process, caller, timestamp());
  return {
    kind: 'replace',
    node: { ...next, fields: { ...next.fields, ...processFields } },
    expectedNodeVersionId: process.nodeVersionId,
    previousStatus: process.nodeStatus,
    previous: process,
  };
}

/**
 * Commits the writes `withVersion` makes around the process's next version, reading the process again
 * each time another change to it committed first.
 */
async function raceForVersion(
  caller: Caller,
  first: Node,
  options: ProcessChangeOptions,
  withVersion: (versionWrites: NodeWrite[]) => NodeWrite[],
): Promise<Node> {
  const started = Date.now();
  for (let process = first; ; ) {
    const version = versionWrite(caller, process, options);
    const liveness: NodeWrite = { kind: 'requireLive', nodeId: process.nodeId, at: timestamp() };
    try {
      await commitNodeWrites(withVersion([liveness, version]), {
        completesRequest: options.completesRequest ?? true,
      });
      return version.node;
    } catch (error) {
      if (!(error instanceof NodeWriteConflict)) throw error;
      if (error.failed.includes(liveness)) throw processGone(process.nodeId);
      if (!error.failed.includes(version)) throw error;
      const latest = await findNode(process.nodeId);
      if (!latest || latest.deleted) throw processGone(process.nodeId);
      if (options.onRace === 'fail') {
        throw new ConflictError(
          'PROCESS_CHANGED',
          'The process was changed while this request was carried out; retry',
        );
      }
      if (Date.now() - started > RACE_BUDGET_MS) {
        throw new ServiceUnavailableError('The process is being changed by many requests at once; retry');
      }
      process = latest;
    }
  }
}

/** More writes than one transaction holds: staged under a batch, made visible by its final commit. */
async function commitAsBatch(
  caller: Caller,
  process: Node,
  writes: NodeWrite[],
  options: ProcessChangeOptions,
): Promise<Node> {
  const processId = process.nodeId;
  await sweepAbandonedBatches(processId);
  const batchId = newId();
  const staged: Node[] = [];
  const groups: NodeWrite[][] = writes.map((write) => {
    if (write.kind === 'create') {
      const node = { ...write.node, batchId };
      staged.push(node);
      return [{ kind: 'stage', node }];
    }
    if (write.kind === 'putEdge') return [{ ...write, edge: { ...write.edge, batchId } }];
    return [write];
  });
  await commitNodeWrites([{ kind: 'openBatch', processId, batchId, at: timestamp() }]);
  try {
    const commits: NodeWrite[][] = [];
    for await (const batch of commitBatches(groups)) commits.push(batch.flat());
    await inPool(commits, STAGING_CONCURRENCY, (commit) => commitNodeWrites(commit));
    const committed = await raceForVersion(caller, process, options, (version) => [
      { kind: 'commitBatch', processId, batchId, staged },
      ...version,
    ]);
    // The nodes answered are the committed ones; their batchId is storage's business only.
    for (const node of staged) delete node.batchId;
    return committed;
  } catch (error) {
    await discardBatch(processId, batchId).catch((cleanupError: unknown) =>
      console.error(
        JSON.stringify({
          level: 'error',
          msg: 'discarding a failed batch',
          batchId,
          error: String(cleanupError),
        }),
      ),
    );
    throw error;
  }
}

/**
 * Removes what a batch staged and its record, unless it has committed (then nothing is touched): first
 * the record is marked abandoned, so a late final commit of that batch can no longer succeed.
 */
export async function discardBatch(processId: string, batchId: string): Promise<void> {
  try {
    await commitNodeWrites([{ kind: 'abandonBatch', processId, batchId }]);
  } catch (error) {
    if (error instanceof NodeWriteConflict) return; // committed: its writes are the process's now
    throw error;
  }
  const { nodeIds, edges } = await stagedBy(processId, batchId);
  const removals: NodeWrite[][] = [
    ...nodeIds.map((nodeId): NodeWrite[] => [{ kind: 'discardStaged', nodeId, parentId: processId }]),
    ...edges.map(({ edgeId }): NodeWrite[] => [{ kind: 'deleteEdge', processId, edgeId }]),
  ];
  for await (const batch of commitBatches(removals)) await commitNodeWrites(batch.flat());
  await commitNodeWrites([{ kind: 'discardBatch', processId, batchId }]);
}

/** Batches of this process left behind by requests that ended without finishing them are removed. */
export async function sweepAbandonedBatches(processId: string, now = Date.now()): Promise<void> {
  const leftBehind = (await batchesOf(processId)).filter(
    (batch) =>
      batch.state === 'abandoned' ||
      (batch.state === 'open' && now - Date.parse(batch.startedAt) > ABANDONED_AFTER_MS),
  );
  for (const batch of leftBehind) await discardBatch(processId, batch.batchId);
}
