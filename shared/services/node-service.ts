/**
 * Use cases on nodes: create, retrieve, update, delete (cascading) and the environment list. Every
 * write goes through the one write path; rules come from the node-type catalogue.
 */

import { findEdges } from '#shared/data/edge-repository.ts';
import type { TrashEntry } from '#shared/data/entities/nodes.ts';
import { findLiveChildIds, findNode, findNodes } from '#shared/data/node-repository.ts';
import {
  commitBatches,
  commitNodeWrites,
  leaseForDelete,
  type NodeWrite,
  NodeWriteConflict,
} from '#shared/data/node-write-path.ts';
import { mayHaveRelations } from '#shared/data/relation-repository.ts';
import { settleAll, settleDeleted } from '#shared/data/relation-settling.ts';
import { findTrashPointer } from '#shared/data/trash-repository.ts';
import {
  BadRequestError,
  bodyError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
  ValidationError,
  VersionConflictError,
} from '#shared/domain/errors.ts';
import {
  etagOf,
  type Node,
  newId,
  newNode,
  newVersionId,
  nextMinorVersion,
  timestamp,
} from '#shared/domain/node.ts';
import { systemRootIdsOf } from '#shared/domain/node-kinds/containers.ts';
import {
  type CreateNodePayload,
  changedTextErrors,
  payloadErrors,
  type SettableFields,
  settableFields,
  type UpdateNodePayload,
} from '#shared/domain/node-payloads.ts';
import {
  NODE_TYPES,
  type NodeTypeDefinition,
  nodeTypeDefinition,
  SYSTEM_ROOT_TYPES,
  systemRootName,
} from '#shared/domain/node-types.ts';
import { can, canReadParentOf } from '#shared/domain/permissions.ts';
import { evaluatePreconditions, type Preconditions } from '#shared/domain/preconditions.ts';
import type { StoredEdge } from '#shared/domain/process-diagram.ts';
import type { Caller } from '#shared/domain/user.ts';
import { getNode, nodeNotFound } from './node-reads.ts';
import type { createTaskInDiagram } from './task-diagram.ts';
import type { edgesCarried, splitCarried } from './task-geometry.ts';
import type { attachmentFor, claimLost } from './upload-attachments.ts';

/** The fields a payload sets, checked against the rules of its type. */
function checkedFields(
  payload: CreateNodePayload | UpdateNodePayload,
  definition: NodeTypeDefinition,
  current?: Node,
): SettableFields {
  const settable = settableFields(payload, definition.kind, current);
  const errors = payloadErrors(payload, definition, settable.fields);
  if (errors.length > 0) throw new ValidationError(errors);
  return settable;
}

/**
 * How FILE documents take their file from an upload (upload-attachments.ts). The create and update
 * handlers pass it in; every other function, which never attaches a file, carries no S3 code for it.
 */
export interface FileAttacher {
  attachmentFor: typeof attachmentFor;
  claimLost: typeof claimLost;
}

/**
 * How a task created under a process commits with the process's next version (task-diagram.ts). The
 * create handler passes it in; no other function carries the diagram's commit for it.
 */
export interface TaskDiagram {
  createTaskInDiagram: typeof createTaskInDiagram;
}

/**
 * How a task's edges follow it when it moves (task-geometry.ts). The update handler passes it in; no other
 * function carries the edges' reads for it.
 */
export interface TaskGeometry {
  edgesCarried: typeof edgesCarried;
  splitCarried: typeof splitCarried;
}

export async function createNode(
  caller: Caller,
  payload: CreateNodePayload,
  files?: FileAttacher,
  parentRead?: Promise<Node | null>,
  diagram?: TaskDiagram,
): Promise<Node> {
  const definition = nodeTypeDefinition(payload.nodeType);
  if (!definition) throw new Error(`nodeType ${payload.nodeType} passed validation but is not catalogued`);
  if (definition.systemRoot) {
    throw new BadRequestError(
      'NODE_TYPE_NOT_CREATABLE',
      `${definition.nodeType} nodes are created with their environment`,
      [bodyError('$.nodeType', 'system_root', 'system roots cannot be created directly')],
    );
  }
  const settable = checkedFields(payload, definition);
  const at = timestamp();
  if (definition.nodeType === 'ENVIRONMENT') return createEnvironment(caller, payload, settable, at);

  const parentId = payload.parent?.nodeId;
  if (!parentId) {
    throw new ValidationError([
      bodyError('$.parent', 'required', `is required for nodeType ${definition.nodeType}`),
    ]);
  }
  const parent = await resolveParent(caller, parentId, definition, parentRead);
  if (!can(caller, parent, 'create')) {
    throw new ForbiddenError(`Creating objects under ${parent.nodeId} needs the editor role there`);
  }
  const attachment = await withAttachedFile(caller, settable, files);
  const node = newNode(
    caller.principal,
    {
      nodeType: definition.nodeType,
      parentId: parent.nodeId,
      environmentId: parent.environmentId,
      ancestorIds: [...(parent.ancestorIds ?? []), parent.nodeId],
      ...settable,
    },
    at,
  );
  if (parent.nodeType === 'PROCESS' && node.nodeType === 'TASK') {
    if (!diagram) throw new Error('This function was built without the diagram commit, but creates a task');
    try {
      await diagram.createTaskInDiagram(caller, parent, node);
    } catch (error) {
      if (error instanceof NotFoundError && error.code === 'NODE_NOT_FOUND') {
        throw parentNotFound(parent.nodeId, 'is being deleted or was deleted meanwhile');
      }
      throw error;
    }
    return node;
  }
  try {
    // The parent must still be live when the create commits: a subtree delete that is reading its
    // children, or has deleted it, makes this create fail rather than leave an orphan.
    await commitNodeWrites(
      [
        { kind: 'requireLive', nodeId: parent.nodeId, at },
        { kind: 'create', node },
        ...(attachment?.claim(node.nodeId, at) ?? []),
      ],
      { completesRequest: true },
    );
  } catch (error) {
    if (error instanceof NodeWriteConflict && error.failed.some((w) => w.kind === 'requireLive')) {
      throw parentNotFound(parent.nodeId, 'is being deleted or was deleted meanwhile');
    }
    if (error instanceof NodeWriteConflict && error.failed.some((w) => w.kind === 'claimUpload')) {
      throw await (files as FileAttacher).claimLost(caller, settable.fields);
    }
    throw error;
  }
  return node;
}

/** A FILE document's file: attached from the caller's upload (or kept), recorded in its fields. */
async function withAttachedFile(
  caller: Caller,
  settable: SettableFields,
  files: FileAttacher | undefined,
  current?: Node,
) {
  if (settable.fields.documentType !== 'FILE') return null;
  if (!files) throw new Error('This function was built without file attachments, but writes a FILE document');
  const attachment = await files.attachmentFor(caller, settable.fields, current);
  if (attachment) settable.fields = { ...settable.fields, fileInfo: attachment.fileInfo };
  return attachment;
}

const parentNotFound = (parentId: string, why = 'must be the nodeId of an existing object') =>
  new NotFoundError('PARENT_NOT_FOUND', `No object with nodeId ${parentId} to create the object under`, [
    { in: 'body', path: '$.parent.nodeId', rule: 'exists', message: why },
  ]);

/**
 * The node a new object goes under. Items kept under a facet's system root (terms, roles, risks, …) may
 * name their environment as parent: they are placed under that environment's root for their facet.
 */
async function resolveParent(
  caller: Caller,
  parentId: string,
  definition: NodeTypeDefinition,
  read: Promise<Node | null> = findNode(parentId),
): Promise<Node> {
  let parent = await read;
  // A parent the caller may not read does not exist for them.
  if (!parent || parent.deleted || !can(caller, parent, 'read')) throw parentNotFound(parentId);
  const rootIds = parent.nodeType === 'ENVIRONMENT' ? systemRootIdsOf(parent.fields) : undefined;
  const rootId = rootIds && definition.parents.map((type) => rootIds[type]).find(Boolean);
  if (rootId && !definition.parents.includes('ENVIRONMENT')) {
    parent = await findNode(rootId);
    if (!parent || parent.deleted) throw parentNotFound(rootId);
  }
  if (!definition.parents.includes(parent.nodeType)) {
    const allowed = definition.parents.join(', ');
    throw new BadRequestError(
      'INVALID_PARENT_TYPE',
      `A ${definition.nodeType} cannot be created under a ${parent.nodeType}; allowed parent types: ${allowed}`,
      [bodyError('$.parent.nodeId', 'parent_type', `must be a node of type ${allowed}`)],
    );
  }
  return parent;
}

/**
 * Whether an update's parent is the object's own: its nodeId, or, for an object kept under its facet's
 * system root, the environment it was created with as parent (resolveParent's alias), so a client may
 * send back the body it created the object with.
 */
async function namesCurrentParent(
  sentParent: string,
  current: Node,
  definition: NodeTypeDefinition,
): Promise<boolean> {
  if (sentParent === current.parentId) return true;
  if (sentParent !== current.environmentId || definition.parents.includes('ENVIRONMENT')) return false;
  const environment = await findNode(sentParent);
  const rootIds = environment ? systemRootIdsOf(environment.fields) : undefined;
  return rootIds !== undefined && definition.parents.some((type) => rootIds[type] === current.parentId);
}

async function createEnvironment(
  caller: Caller,
  payload: CreateNodePayload,
  settable: SettableFields,
  at: string,
): Promise<Node> {
  if (!caller.systemAdmin) throw new ForbiddenError('Only system administrators create environments');
  if (payload.parent) {
    throw new ValidationError([
      bodyError('$.parent', 'forbidden', 'an environment has no parent; leave it out'),
    ]);
  }
  const environmentId = newId();
  const environment = newNode(
    caller.principal,
    {
      nodeId: environmentId,
      nodeType: 'ENVIRONMENT',
      parentId: null,
      environmentId,
      ancestorIds: [],
      ...settable,
    },
    at,
  );
  const roots = SYSTEM_ROOT_TYPES.map((definition) =>
    newNode(
      caller.principal,
      {
        nodeType: definition.nodeType,
        name: systemRootName(definition),
        parentId: environmentId,
        environmentId,
        ancestorIds: [environmentId],
        system: true,
      },
      at,
    ),
  );
  environment.fields = {
    systemRootIds: Object.fromEntries(roots.map((root) => [root.nodeType, root.nodeId])),
  };
  await commitNodeWrites(
    [environment, ...roots].map((node) => ({ kind: 'create', node })),
    { completesRequest: true },
  );
  return environment;
}

const ROLE_NEEDED: Record<'edit' | 'delete' | 'publish', string> = {
  edit: 'the editor role',
  delete: 'the environment admin role',
  publish: 'the environment admin role',
};

/**
 * The working copy `caller` may write with `permission`, if the request's preconditions hold for it
 * (If-Match, If-None-Match: a 412 otherwise). `read` is the working copy's read if it was started already
 * (readNode, beside the session check).
 */
export async function liveNodeForWrite(
  caller: Caller,
  nodeId: string,
  conditions: Preconditions,
  permission: 'edit' | 'delete' | 'publish',
  read?: Promise<Node | null>,
): Promise<Node> {
  const node = await getNode(caller, nodeId, true, read);
  if (!can(caller, node, permission)) {
    throw new ForbiddenError(`This needs ${ROLE_NEEDED[permission]} on object ${nodeId} or above it`);
  }
  evaluatePreconditions(conditions, etagOf(node), 'write');
  return node;
}

/** The next state of a node after a write by `caller` (a published node starts its next draft). */
export function nextVersionOf(node: Node, caller: Caller, at: string): Node {
  return {
    ...node,
    nodeVersionId: newVersionId(),
    version: nextMinorVersion(node.version),
    nodeStatus: 'IN_PROGRESS',
    modificationDate: at,
    modifiedBy: caller.principal.principalId,
    modifiedByName: caller.principal.name,
  };
}

export async function updateNode(
  caller: Caller,
  nodeId: string,
  payload: UpdateNodePayload,
  conditions: Preconditions,
  files?: FileAttacher,
  read?: Promise<Node | null>,
  geometry?: TaskGeometry,
): Promise<Node> {
  if (payload.nodeId !== nodeId) {
    throw new ValidationError([
      bodyError('$.nodeId', 'matches_path', `must equal the nodeId of the path (${nodeId})`),
    ]);
  }
  const current = await liveNodeForWrite(caller, nodeId, conditions, 'edit', read);
  if (payload.nodeVersionId !== current.nodeVersionId) {
    throw new VersionConflictError(nodeId, payload.nodeVersionId, current.nodeVersionId);
  }
  const definition = nodeTypeDefinition(current.nodeType);
  if (!definition) throw new Error(`Stored nodeType ${current.nodeType} is not catalogued`);
  if (payload.nodeType !== current.nodeType) {
    throw new ValidationError([
      bodyError('$.nodeType', 'immutable', `cannot change; this object is a ${current.nodeType}`),
    ]);
  }
  const textErrors = changedTextErrors(payload, {
    name: current.name,
    referenceNumber: current.referenceNumber,
    richTextDescription: current.richTextDescription,
    url: current.fields.url,
  });
  if (textErrors.length > 0) throw new ValidationError(textErrors);
  const settable = checkedFields(payload, definition, current);
  const sentParent = payload.parent?.nodeId;
  if (sentParent !== undefined && !(await namesCurrentParent(sentParent, current, definition))) {
    // Named only to whoever may read it: a retrieve shows others the parent as null.
    const rule = canReadParentOf(caller, current)
      ? `must be the current parent (${current.parentId})`
      : 'must be the current parent, which a retrieve shows you as null: leave parent out or send null';
    throw new BadRequestError('MOVE_NOT_SUPPORTED', 'An update cannot move an object to another parent', [
      bodyError('$.parent.nodeId', 'immutable', rule),
    ]);
  }
  if (current.system && payload.name.trim() !== current.name) {
    throw new ConflictError('SYSTEM_NODE_PROTECTED', 'System nodes keep the name they were created with');
  }
  const attachment = await withAttachedFile(caller, settable, files, current);
  const updated: Node = { ...nextVersionOf(current, caller, timestamp()), ...settable };
  const carried = geometry
    ? geometry.splitCarried(await geometry.edgesCarried(caller, current, updated))
    : { along: [], after: async () => {} };
  try {
    await replaceWorkingCopy(current, updated, [
      ...(attachment?.claim(nodeId, updated.modificationDate) ?? []),
      ...carried.along,
    ]);
  } catch (error) {
    if (error instanceof NodeWriteConflict && error.failed.some((w) => w.kind === 'claimUpload')) {
      throw await (files as FileAttacher).claimLost(caller, settable.fields);
    }
    if (error instanceof NodeWriteConflict && error.failed.some((w) => w.kind === 'moveEdgePorts')) {
      throw new ConflictError(
        'WRITE_CONFLICT',
        'An edge of the task was removed while this request was carried out; retry it',
      );
    }
    throw error;
  }
  await carried.after();
  return updated;
}

/**
 * The working copy `current` becomes `next` (with `along`, in the same commit), if no other write came
 * first: else a 409 naming the version that did (404 if the object was deleted meanwhile). The version
 * replaced is kept in the history.
 */
export async function replaceWorkingCopy(current: Node, next: Node, along: NodeWrite[] = []): Promise<void> {
  let [read, written] = [current, next];
  for (let attempt = 1; ; attempt++) {
    try {
      await commitNodeWrites(
        [
          {
            kind: 'replace',
            node: written,
            expectedNodeVersionId: read.nodeVersionId,
            previousStatus: read.nodeStatus,
            previous: read,
          },
          ...along,
        ],
        { completesRequest: true },
      );
      return;
    } catch (error) {
      if (!(error instanceof NodeWriteConflict && error.failed.some((w) => w.kind === 'replace')))
        throw error;
      const latest = await findNode(read.nodeId);
      if (!latest || latest.deleted) throw nodeNotFound(read.nodeId);
      // Same version: only a first relation came in meanwhile; write again, keeping its mark.
      if (latest.nodeVersionId === read.nodeVersionId && latest.hasRelations && attempt < 3) {
        [read, written] = [latest, { ...written, hasRelations: true }];
        continue;
      }
      throw new VersionConflictError(read.nodeId, read.nodeVersionId, latest.nodeVersionId);
    }
  }
}

/** How long a subtree delete keeps creates out of the nodes it reads: longer than a function may run. */
export const DELETE_LEASE_MS = 60_000;

/** Node types that can hold children (from the catalogue): only their children are read and guarded. */
export const CONTAINER_TYPES: ReadonlySet<string> = new Set(NODE_TYPES.flatMap((type) => type.parents));

/**
 * The live subtree under `root`, level by level (root first). Each level's containers are leased first and
 * read second: once leased, no child can be created under them until the lease ends, so the children read
 * after the lease are all they will have when the delete commits. (An update of a leased node changes its
 * version, so the delete's commit fails and starts over.)
 */
async function collectSubtree(root: Node, at: string): Promise<Node[]> {
  const until = new Date(Date.parse(at) + DELETE_LEASE_MS).toISOString();
  const subtree: Node[] = [];
  for (let level = [root]; level.length > 0; ) {
    subtree.push(...level);
    const containers = level.filter((node) => CONTAINER_TYPES.has(node.nodeType));
    if (containers.length === 0) break;
    await Promise.all(containers.map((node) => leaseForDelete(node, until)));
    const childIds = (await Promise.all(containers.map((node) => findLiveChildIds(node.nodeId)))).flat();
    level = (await findNodes(childIds)).filter((child) => !child.deleted);
  }
  return subtree;
}

/** One step of a delete: a node's soft delete (its writes kept in one commit), or an edge's removal. */
interface DeletionStep {
  deleted?: Node;
  writes: NodeWrite[];
}

/**
 * The edges a subtree delete removes, by the node they go with: all of a deleted process's, and those
 * touching a deleted task of a process that stays.
 */
async function edgeRemovalsFor(subtree: Node[], rootId: string): Promise<Map<string, NodeWrite[]>> {
  const inSubtree = new Set(subtree.map((node) => node.nodeId));
  const removals = new Map<string, NodeWrite[]>();
  const processes = subtree.filter((node) => node.nodeType === 'PROCESS');
  const tasksOfKeptProcesses = subtree.filter(
    (node) => node.nodeType === 'TASK' && node.parentId && !inSubtree.has(node.parentId),
  );
  const processIds = [
    ...new Set([...processes.map((p) => p.nodeId), ...tasksOfKeptProcesses.map((t) => t.parentId as string)]),
  ];
  const edgesByProcess = new Map(
    await Promise.all(processIds.map(async (id) => [id, await findEdges(id)] as const)),
  );
  // An edge between two deleted tasks goes with the first of them, once.
  const claimed = new Set<string>();
  // Each edge is kept in the trash with the subtree, to come back with a restore.
  const remove = (nodeId: string, processId: string, removed: StoredEdge[]) => {
    const unclaimed = removed.filter((edge) => !claimed.has(edge.edgeId));
    for (const edge of unclaimed) claimed.add(edge.edgeId);
    removals.set(nodeId, [
      ...(removals.get(nodeId) ?? []),
      ...unclaimed.map(
        (edge): NodeWrite => ({
          kind: 'deleteEdge',
          processId,
          edgeId: edge.edgeId,
          trash: { rootId, edge },
        }),
      ),
    ]);
  };
  for (const process of processes) {
    remove(process.nodeId, process.nodeId, edgesByProcess.get(process.nodeId) ?? []);
  }
  for (const task of tasksOfKeptProcesses) {
    const processId = task.parentId as string;
    const touching = (edgesByProcess.get(processId) ?? []).filter(
      (edge) => edge.sourceNodeId === task.nodeId || edge.targetNodeId === task.nodeId,
    );
    remove(task.nodeId, processId, touching);
  }
  return removals;
}

/** Writes of one node's soft delete with the subtree of `rootId`, kept together in one commit. */
function deletionWrites(
  node: Node,
  caller: Caller,
  at: string,
  rootId: string,
): DeletionStep & { deleted: Node } {
  const deleted: Node = { ...nextVersionOf(node, caller, at), nodeStatus: node.nodeStatus, deleted: true };
  const writes: NodeWrite[] = [
    {
      kind: 'replace',
      node: deleted,
      expectedNodeVersionId: node.nodeVersionId,
      trashRootId: rootId,
      previous: node,
    },
  ];
  if (node.publishedNodeVersionId) writes.push({ kind: 'deletePublished', nodeId: node.nodeId });
  return { deleted, writes };
}

/**
 * A delete meeting writes in its subtree starts over (each attempt takes what is still live, so it
 * progresses), until its root commits, for up to DELETE_BUDGET_MS: a few editors saving inside a large
 * folder cut short three attempts about half the time.
 */
const DELETE_BUDGET_MS = 15_000;
const DELETE_MAX_ATTEMPTS = 20;

/** How long a deleted subtree can be restored (its trash entry's TTL). */
export const TRASH_RETENTION_DAYS = 30;

/** A delete that kept meeting writes: what it took stays deleted until a repeat finishes it. */
function deleteCutShort(nodeId: string, taken: number): ConflictError {
  return new ConflictError(
    'WRITE_CONFLICT',
    `The subtree of ${nodeId} kept changing while it was deleted: ${taken} of its objects are deleted, ` +
      'the rest not yet; repeat the delete to finish it (a restore of it then brings them all back)',
    { deletedSoFar: taken },
  );
}

function trashEntryOf(root: Node, caller: Caller, at: string, count: number): TrashEntry {
  return {
    nodeId: root.nodeId,
    nodeType: root.nodeType,
    name: root.name,
    parentId: root.parentId ?? null,
    environmentId: root.environmentId,
    ancestorIds: root.ancestorIds ?? [],
    deletedAt: at,
    deletedByName: caller.principal.name,
    nodes: count,
    expiresAtEpoch: Math.floor(Date.parse(at) / 1000) + TRASH_RETENTION_DAYS * 24 * 3600,
  };
}

/**
 * Soft-deletes a node and its whole subtree. Up to 100 writes commit all-or-nothing; a larger subtree
 * commits in batches, deepest nodes first and the root last, so an interrupted delete leaves the root in
 * place and can simply be repeated. A create racing the delete either fails (its parent is marked or
 * deleted) or its node is deleted too and is part of the answer. The answer holds every node this request
 * deleted, the root first, also when a conflict made it start over midway; so does its trash entry's count.
 */
export async function deleteNode(
  caller: Caller,
  nodeId: string,
  conditions: Preconditions = {},
  read?: Promise<Node | null>,
): Promise<Node[]> {
  const deleted = new Map<string, Node>();
  const started = Date.now();
  let attemptStarted = started;
  /** The trash entry of an earlier delete of the root, found once a commit met its pointer. */
  let supersedes: string | undefined;
  for (let attempt = 1; ; attempt++) {
    // A conflict starts over from a fresh read.
    // The preconditions are the request's, on the object as it first found it: an attempt after a
    // conflict has already deleted part of the subtree, and refusing then would leave that unsaid.
    const root = await liveNodeForWrite(
      caller,
      nodeId,
      attempt === 1 ? conditions : {},
      'delete',
      attempt === 1 ? read : undefined,
    );
    if (root.system) {
      throw new ConflictError(
        'SYSTEM_NODE_PROTECTED',
        'System nodes are deleted only with their environment',
      );
    }
    if (root.nodeType === 'ENVIRONMENT' && !caller.systemAdmin) {
      throw new ForbiddenError('Only system administrators delete environments');
    }
    const at = timestamp();
    try {
      const subtree = await collectSubtree(root, at);
      const edgeRemovals = await edgeRemovalsFor(subtree, root.nodeId);
      // Deepest first, each node after the removal of its edges; the root goes last.
      const plan = [...subtree]
        .reverse()
        .flatMap((node): DeletionStep[] => [
          ...(edgeRemovals.get(node.nodeId) ?? []).map((write) => ({ writes: [write] })),
          deletionWrites(node, caller, at, root.nodeId),
        ]);
      // The root's commit, the last, puts the subtree in the trash: with what the attempts before this one
      // deleted, which is in the trash under the same root.
      const rootStep = plan.at(-1) as DeletionStep;
      const taken = new Set([...deleted.keys(), ...subtree.map((node) => node.nodeId)]).size;
      rootStep.writes.push({ kind: 'trashEntry', entry: trashEntryOf(root, caller, at, taken), supersedes });
      for await (const batch of commitBatches(plan)) {
        // The root's commit completes the request.
        const completesRequest = batch.some((entry) => entry.deleted?.nodeId === root.nodeId);
        await commitNodeWrites(
          batch.flatMap((entry) => entry.writes),
          { completesRequest },
        );
        for (const entry of batch) if (entry.deleted) deleted.set(entry.deleted.nodeId, entry.deleted);
      }
      // No link can be added to a deleted node: the relations read now are all it has. A node never
      // linked has none to settle: a link marks its ends hasRelations in the link's transaction, and
      // the delete's commit was conditioned on the mark as read.
      await settleAll([...deleted.values()].filter(mayHaveRelations), settleDeleted);
      // The root has the fewest ancestors: it comes first, then the subtree level by level.
      return [...deleted.values()].sort((a, b) => a.ancestorIds.length - b.ancestorIds.length);
    } catch (error) {
      if (!(error instanceof NodeWriteConflict)) throw error;
      // The root was deleted before and its restore cut short (its pointer is still there): this delete's
      // entry takes the place of that one.
      if (error.failed.some((write) => write.kind === 'trashEntry') && supersedes === undefined) {
        supersedes = (await findTrashPointer(nodeId))?.deletedAt;
        // No other writer met: only the root's commit is left, at once and outside the budget.
        if (supersedes && error.failed.every((write) => write.kind === 'trashEntry')) continue;
      }
      // Another attempt as long as the last one must end within the budget (the function's own limit is 29 s).
      const now = Date.now();
      if (attempt === DELETE_MAX_ATTEMPTS || now + (now - attemptStarted) - started > DELETE_BUDGET_MS) {
        throw deleteCutShort(nodeId, deleted.size);
      }
      // Jittered, growing: the write met has time to land before the next attempt reads again.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(200, 10 * 2 ** attempt)));
      attemptStarted = Date.now();
    }
  }
}
