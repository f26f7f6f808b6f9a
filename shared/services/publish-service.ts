/**
 * Publishing (spec §2.1, §3): the working copy becomes the next major version (`.0000`), PUBLISHED, and
 * its published copy, which `draft=false` reads show, in one transaction. A later write starts the next
 * draft (`1.0001`, IN_PROGRESS) while the published copy stays as it was. A process is published with its
 * tasks (its diagram is part of it); `recursive` publishes a folder's whole subtree at once.
 */
import { findEdges } from '#shared/data/edge-repository.ts';
import { findLiveChildren } from '#shared/data/node-repository.ts';
import {
  commitItemCount,
  commitNodeWrites,
  MAX_WRITES_PER_COMMIT,
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
import type { Caller } from '#shared/domain/user.ts';
import { liveNodeForWrite } from './node-service.ts';

/** Objects one publish takes: all of them commit in one transaction (two writes each, plus counts). */
export const PUBLISH_LIMIT = 40;

/** The working copy `caller` may change, at the version the caller quoted (body or If-Match, one required). */
export async function quotedNode(
  caller: Caller,
  nodeId: string,
  quote: { body?: VersionQuotePayload | undefined; ifMatch?: string | undefined },
  permission: 'edit' | 'publish',
): Promise<Node> {
  const sent = quote.body?.nodeVersionId;
  if (sent === undefined && quote.ifMatch === undefined) {
    throw new BadRequestError(
      'VERSION_REQUIRED',
      'Name the version you saw: nodeVersionId in the body, or If-Match',
      [bodyError('$.nodeVersionId', 'required', 'is required unless If-Match names the current version')],
    );
  }
  const current = await liveNodeForWrite(caller, nodeId, quote.ifMatch, permission);
  if (sent !== undefined && sent.toUpperCase() !== current.nodeVersionId) {
    throw new VersionConflictError(nodeId, sent, current.nodeVersionId);
  }
  return current;
}

export async function publishNode(
  caller: Caller,
  nodeId: string,
  quote: { body?: VersionQuotePayload | undefined; ifMatch?: string | undefined },
  recursive: boolean,
): Promise<Node[]> {
  const root = await quotedNode(caller, nodeId, quote, 'publish');
  const targets = [root, ...(await publishedAlong(root, recursive))];
  if (targets.some((node) => !can(caller, node, 'publish'))) {
    throw new ForbiddenError(`Publishing ${nodeId} needs the environment admin role over all of it`);
  }
  const at = timestamp();
  const changed = targets.filter((node) => node.nodeStatus !== 'PUBLISHED');
  const published = changed.map((node) => publishedVersionOf(node, caller, at));
  // A process's copy keeps its edges as published (each edge item is small; a very large diagram is refused).
  const edgesOf = new Map(
    await Promise.all(
      changed
        .filter((node) => node.nodeType === 'PROCESS')
        .map(async (node) => [node.nodeId, await findEdges(node.nodeId)] as const),
    ),
  );
  for (const [processId, edges] of edgesOf) {
    if (Buffer.byteLength(JSON.stringify(edges)) > PUBLISHED_EDGES_MAX_BYTES)
      throw diagramTooLarge(processId);
  }
  const writes = changed.flatMap((node, i): NodeWrite[] => {
    const next = published[i] as Node;
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
  });
  if (commitItemCount(writes) >= MAX_WRITES_PER_COMMIT) throw tooLarge(nodeId);
  try {
    await commitNodeWrites(writes, { completesRequest: true });
  } catch (error) {
    if (error instanceof NodeWriteConflict) {
      throw new ConflictError(
        'WRITE_CONFLICT',
        'An object being published was changed meanwhile: nothing was published; retrieve it and publish again',
      );
    }
    throw error;
  }
  const byId = new Map(published.map((node) => [node.nodeId, node]));
  return targets.map((node) => byId.get(node.nodeId) ?? node);
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

/** What is published with `root`: a process's tasks; with `recursive`, the whole live subtree. */
async function publishedAlong(root: Node, recursive: boolean): Promise<Node[]> {
  const found: Node[] = [];
  let level = [root];
  while (level.length > 0) {
    const children = (await Promise.all(level.map((node) => findLiveChildren(node.nodeId)))).flat();
    const along = recursive
      ? children
      : children.filter((child) => child.nodeType === 'TASK' && root.nodeType === 'PROCESS');
    found.push(...along);
    if (found.length + 1 > PUBLISH_LIMIT) throw tooLarge(root.nodeId);
    level = recursive ? along : [];
  }
  return found;
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
    `Publishing ${nodeId} would publish more than ${PUBLISH_LIMIT} objects at once, which one transaction ` +
      'cannot hold; publish its subfolders first (objects already published are left as they are)',
    { limit: PUBLISH_LIMIT },
  );
