/**
 * Publishing (spec §2.1, §3): the working copy becomes the next major version (`.0000`), PUBLISHED, and
 * its published copy, which `draft=false` reads show, in one transaction. A later write starts the next
 * draft (`1.0001`, IN_PROGRESS) while the published copy stays as it was. A process is published with its
 * tasks (its diagram is part of it); `recursive` publishes a folder's whole subtree. More objects than one
 * transaction holds commit in steps, the deepest first.
 */
import { findEdges } from '#shared/data/edge-repository.ts';
import { findLiveChildren } from '#shared/data/node-repository.ts';
import {
  commitBatches,
  commitBytes,
  commitItemCount,
  commitNodeWrites,
  fitsOneCommit,
  type NodeWrite,
  NodeWriteConflict,
} from '#shared/data/node-write-path.ts';
import {
  BadRequestError,
  bodyError,
  ConflictError,
  ForbiddenError,
  VersionConflictError,
} from '#shared/domain/errors.ts';
import { type Node, newVersionId, nextMajorVersion, timestamp } from '#shared/domain/node.ts';
import type { VersionQuotePayload } from '#shared/domain/node-version.ts';
import { can } from '#shared/domain/permissions.ts';
import { ifMatchNamesVersion, type Preconditions } from '#shared/domain/preconditions.ts';
import type { Caller } from '#shared/domain/user.ts';
import { inPool } from './in-pool.ts';
import { liveNodeForWrite } from './node-service.ts';

/**
 * Objects one publish takes. Up to about 30 commit in one transaction (two writes each, plus counts);
 * more commit in steps, which bounds the request's time.
 */
export const PUBLISH_LIMIT = 2000;

/** The version a publish or restore is for: the body's nodeVersionId or If-Match, with the other preconditions. */
export type VersionQuote = Preconditions & { body?: VersionQuotePayload | undefined };

/**
 * The working copy `caller` may change, at the version the caller quoted: the body's nodeVersionId or an
 * If-Match naming it, one required. `If-Match: *` names no version (it holds whatever the version), so
 * alone it is no quote; beside a body's nodeVersionId it is a precondition like any other.
 */
export async function quotedNode(
  caller: Caller,
  nodeId: string,
  quote: VersionQuote,
  permission: 'edit' | 'publish',
): Promise<Node> {
  const sent = quote.body?.nodeVersionId;
  if (sent === undefined && !ifMatchNamesVersion(quote.ifMatch)) {
    throw new BadRequestError(
      'VERSION_REQUIRED',
      'Name the version you saw: nodeVersionId in the body, or If-Match naming it (If-Match: * names none)',
      [bodyError('$.nodeVersionId', 'required', 'is required unless If-Match names the current version')],
    );
  }
  const current = await liveNodeForWrite(caller, nodeId, quote, permission);
  if (sent !== undefined && sent.toUpperCase() !== current.nodeVersionId) {
    throw new VersionConflictError(nodeId, sent, current.nodeVersionId);
  }
  return current;
}

export async function publishNode(
  caller: Caller,
  nodeId: string,
  quote: VersionQuote,
  recursive: boolean,
): Promise<Node[]> {
  const root = await quotedNode(caller, nodeId, quote, 'publish');
  const levels = await publishedAlong(root, recursive);
  const targets = [root, ...levels.flat()];
  if (targets.some((node) => !can(caller, node, 'publish'))) {
    throw new ForbiddenError(`Publishing ${nodeId} needs the environment admin role over all of it`);
  }
  const at = timestamp();
  const isChanged = (node: Node) => node.nodeStatus !== 'PUBLISHED';
  const published = new Map(
    targets.filter(isChanged).map((node) => [node.nodeId, publishedVersionOf(node, caller, at)]),
  );
  // A process's copy keeps its edges as published (each edge item is small; a very large diagram is refused).
  const edgesOf = new Map(
    await Promise.all(
      targets
        .filter((node) => isChanged(node) && node.nodeType === 'PROCESS')
        .map(async (node) => [node.nodeId, await findEdges(node.nodeId)] as const),
    ),
  );
  for (const [processId, edges] of edgesOf) {
    if (Buffer.byteLength(JSON.stringify(edges)) > PUBLISHED_EDGES_MAX_BYTES)
      throw diagramTooLarge(processId);
  }
  const writesOf = (node: Node): NodeWrite[] => {
    const next = published.get(node.nodeId) as Node;
    const edges = edgesOf.get(node.nodeId);
    // The tasks published with it: its live tasks, every one of them a target (published now or already).
    const taskIds = targets
      .filter((target) => target.parentId === node.nodeId && target.nodeType === 'TASK')
      .map((task) => task.nodeId);
    return [
      {
        kind: 'replace',
        node: next,
        expectedNodeVersionId: node.nodeVersionId,
        previousStatus: node.nodeStatus,
        previous: node,
      },
      { kind: 'publish', node: next, ...(edges ? { diagram: { edges, taskIds } } : {}) },
    ];
  };
  // Deepest first and the given object last, so a process is published after the tasks its copy names.
  const steps = [...[...levels].reverse(), [root]].map((level) => level.filter(isChanged).map(writesOf));
  try {
    await commitSteps(steps);
  } catch (error) {
    if (error instanceof NodeWriteConflict) {
      throw new ConflictError(
        'WRITE_CONFLICT',
        'An object being published was changed meanwhile: it was not published (nor, when the publish ' +
          'took more than one transaction, those after it); retrieve it and publish again',
      );
    }
    throw error;
  }
  return targets.map((node) => published.get(node.nodeId) ?? node);
}

/** How many of a large publish's transactions of one level run at once. */
const STEP_CONCURRENCY = 4;

/**
 * Commits the writes of every object, all together when one transaction holds them. Otherwise level by
 * level (each level's transactions side by side): what a failed step leaves published is as if those
 * objects had been published on their own.
 */
async function commitSteps(steps: NodeWrite[][][]): Promise<void> {
  const all = steps.flat(2);
  if (fitsOneCommit({ items: commitItemCount(all), bytes: commitBytes(all) })) {
    await commitNodeWrites(all, { completesRequest: true });
    return;
  }
  const levels = steps.filter((level) => level.length > 0);
  for (const [i, level] of levels.entries()) {
    const batches: NodeWrite[][] = [];
    for await (const batch of commitBatches(level)) batches.push(batch.flat());
    const last = i === levels.length - 1;
    // The request completes with the last transaction (an Idempotency-Key is recorded with it).
    const finalBatch = last ? batches.pop() : undefined;
    await inPool(batches, STEP_CONCURRENCY, (batch) => commitNodeWrites(batch));
    if (finalBatch) await commitNodeWrites(finalBatch, { completesRequest: true });
  }
}

function publishedVersionOf(node: Node, caller: Caller, at: string): Node {
  const nodeVersionId = newVersionId();
  return {
    ...node,
    nodeVersionId,
    version: nextMajorVersion(node.version),
    nodeStatus: 'PUBLISHED',
    publishedNodeVersionId: nodeVersionId,
    modificationDate: at,
    modifiedBy: caller.principal.principalId,
    modifiedByName: caller.principal.name,
  };
}

/**
 * What is published with `root`, level by level down from its children: a process's tasks; with
 * `recursive`, the whole live subtree.
 */
async function publishedAlong(root: Node, recursive: boolean): Promise<Node[][]> {
  const levels: Node[][] = [];
  let count = 1;
  for (let level = [root]; level.length > 0; ) {
    const children = (await Promise.all(level.map((node) => findLiveChildren(node.nodeId)))).flat();
    const along = recursive
      ? children
      : children.filter((child) => child.nodeType === 'TASK' && root.nodeType === 'PROCESS');
    count += along.length;
    if (count > PUBLISH_LIMIT) throw tooLarge(root.nodeId);
    if (along.length > 0) levels.push(along);
    level = recursive ? along : [];
  }
  return levels;
}

/** What a published copy may hold of edges: well inside DynamoDB's 400 KB item. */
const PUBLISHED_EDGES_MAX_BYTES = 300 * 1024;

const diagramTooLarge = (processId: string) =>
  new ConflictError(
    'PUBLISH_TOO_LARGE',
    `The diagram of ${processId} has too many edges to publish (at most about 1,500): remove some first`,
    { processId },
  );

const tooLarge = (nodeId: string) =>
  new ConflictError(
    'PUBLISH_TOO_LARGE',
    `Publishing ${nodeId} would publish more than ${PUBLISH_LIMIT} objects at once; publish parts of it ` +
      'first (its subfolders, or a process on its own): objects already published are left as they are',
    { limit: PUBLISH_LIMIT },
  );
