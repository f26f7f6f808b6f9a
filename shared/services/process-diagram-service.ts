/**
 * A process's diagram: tasks added with their edges (spec §4.3), edges added and removed later, and the
 * diagram read back. Tasks are nodes like any other (retrieved, updated and deleted through /items); edges
 * belong to the process. Every change moves the process to its next version (process-changes.ts).
 */
import { findEdge, findEdges, findPublishedDiagram } from '#shared/data/edge-repository.ts';
import { findLiveChildren, findNodes } from '#shared/data/node-repository.ts';
import type { NodeWrite } from '#shared/data/node-write-path.ts';
import {
  BadRequestError,
  bodyError,
  type FieldError,
  ForbiddenError,
  NotFoundError,
  ValidationError,
} from '#shared/domain/errors.ts';
import { type Node, newId, newNode, timestamp } from '#shared/domain/node.ts';
import type { TaskFields } from '#shared/domain/node-kinds/task.ts';
import { can } from '#shared/domain/permissions.ts';
import {
  DIAGRAM_LIMITS,
  type Edge,
  type NewEdgePayload,
  type StoredEdge,
  type TaskNodePayload,
} from '#shared/domain/process-diagram.ts';
import type { Caller } from '#shared/domain/user.ts';
import { getNode } from './node-reads.ts';
import { commitToProcess } from './process-changes.ts';

/** New tasks show version 0.0002 (spec §4.3, the add-nodes answer): created, then placed. */
const PLACED_TASK_VERSION = '0.0002';

/** A new task of `process`, placed on its diagram (the add-nodes call and the BPMN import make them alike). */
export function newTask(
  caller: Caller,
  process: Node,
  name: string,
  fields: Omit<TaskFields, 'bpmnKind' | 'bpmnElementId'> & {
    bpmnKind?: string | null;
    bpmnElementId?: string | null;
  },
  at: string,
): Node {
  return newNode(
    caller.principal,
    {
      nodeType: 'TASK',
      name: name.trim(),
      parentId: process.nodeId,
      environmentId: process.environmentId,
      ancestorIds: [...process.ancestorIds, process.nodeId],
      version: PLACED_TASK_VERSION,
      fields,
    },
    at,
  );
}

/** The process `processId`, for a change by `caller`: visible (else 404), a PROCESS, and editable. */
export async function processForChange(
  caller: Caller,
  processId: string,
  where: FieldError['in'] = 'path',
): Promise<Node> {
  const process = await getNode(caller, processId, true);
  if (process.nodeType !== 'PROCESS') {
    throw new BadRequestError(
      'NOT_A_PROCESS',
      `Object ${processId} is a ${process.nodeType}, not a PROCESS`,
      [
        {
          in: where,
          path: where === 'query' ? '$.process' : '$.processId',
          rule: 'process',
          message: 'must be the nodeId of a PROCESS',
        },
      ],
    );
  }
  if (!can(caller, process, 'create')) {
    throw new ForbiddenError(`Changing the diagram of process ${processId} needs the editor role there`);
  }
  return process;
}

/** The live tasks of `process` among `nodeIds`, by nodeId. */
async function tasksOf(process: Node, nodeIds: string[]): Promise<Map<string, Node>> {
  const found = nodeIds.length > 0 ? await findNodes([...new Set(nodeIds)]) : [];
  return new Map(
    found
      .filter((node) => !node.deleted && node.nodeType === 'TASK' && node.parentId === process.nodeId)
      .map((node) => [node.nodeId, node]),
  );
}

const notATask = (path: string, processId: string) =>
  bodyError(
    path,
    'task_of_process',
    `must name a task of this request (editId) or of process ${processId} (nodeId)`,
  );

/** The edges of all the call's tasks together are at most DIAGRAM_LIMITS.edgesPerCall (each task's are too). */
function refuseTooManyEdges(payload: TaskNodePayload[]): void {
  let total = 0;
  for (const [i, task] of payload.entries()) {
    total += task.edges?.length ?? 0;
    if (total > DIAGRAM_LIMITS.edgesPerCall) {
      throw new ValidationError([
        bodyError(
          `$[${i}].edges`,
          'max_edges_per_call',
          `takes the call's edges past ${DIAGRAM_LIMITS.edgesPerCall} (all its tasks' together); add the rest in another call`,
        ),
      ]);
    }
  }
}

/**
 * Spec §4.3: the tasks are created in request order, with their edges; edges name tasks of the request by
 * editId, or tasks already in the process by nodeId. All of it commits, or none of it.
 */
export async function addTasks(
  caller: Caller,
  processId: string,
  payload: TaskNodePayload[],
): Promise<{ node: Node; editId: string }[]> {
  refuseTooManyEdges(payload);
  const process = await processForChange(caller, processId, 'query');
  const errors: FieldError[] = [];
  const byEditId = new Map<string, number>();
  payload.forEach((task, i) => {
    if (byEditId.has(task.editId)) {
      errors.push(
        bodyError(`$[${i}].editId`, 'unique', `repeats the editId of task ${byEditId.get(task.editId)}`),
      );
    } else byEditId.set(task.editId, i);
  });
  const ends = payload.flatMap((task, i) =>
    (task.edges ?? []).flatMap((edge, j) => [
      { path: `$[${i}].edges[${j}].sourceNodeId`, ref: edge.sourceNodeId },
      { path: `$[${i}].edges[${j}].targetNodeId`, ref: edge.targetNodeId },
    ]),
  );
  const existing = await tasksOf(
    process,
    ends
      .filter((end) => !byEditId.has(end.ref) && /^[0-9A-Fa-f-]{36}$/.test(end.ref))
      .map((end) => end.ref.toUpperCase()),
  );
  for (const end of ends) {
    if (!byEditId.has(end.ref) && !existing.has(end.ref.toUpperCase()))
      errors.push(notATask(end.path, processId));
  }
  if (errors.length > 0) throw new ValidationError(errors);

  const at = timestamp();
  const stamp = { by: caller.principal.principalId, at };
  const created = payload.map(({ editId, name, sequenceNumber, topLeftX, topLeftY, width, height }) => ({
    editId,
    node: newTask(caller, process, name, { sequenceNumber, topLeftX, topLeftY, width, height }, at),
  }));
  const nodeIdOf = (ref: string) =>
    byEditId.has(ref)
      ? (created[byEditId.get(ref) as number] as (typeof created)[number]).node.nodeId
      : ref.toUpperCase();
  const edges: StoredEdge[] = payload.flatMap((task) =>
    (task.edges ?? []).map((edge) => ({
      edgeId: newId(),
      sourceNodeId: nodeIdOf(edge.sourceNodeId),
      sourcePortPoint: edge.sourcePortPoint,
      targetNodeId: nodeIdOf(edge.targetNodeId),
      targetPortPoint: edge.targetPortPoint,
      bpmnElementId: null,
    })),
  );
  await commitToProcess(caller, process, [
    ...created.map(({ node }): NodeWrite => ({ kind: 'create', node })),
    ...edges.map((edge): NodeWrite => ({ kind: 'putEdge', processId: process.nodeId, edge, stamp })),
  ]);
  return created;
}

/** Edges between tasks of the process (named by nodeId), added together with the process's next version. */
export async function addEdges(
  caller: Caller,
  processId: string,
  payload: NewEdgePayload[],
): Promise<Edge[]> {
  const process = await processForChange(caller, processId);
  const tasks = await tasksOf(
    process,
    payload.flatMap((edge) => [edge.sourceNodeId, edge.targetNodeId]),
  );
  const errors = payload.flatMap((edge, i) =>
    (['sourceNodeId', 'targetNodeId'] as const)
      .filter((end) => !tasks.has(edge[end]))
      .map((end) =>
        bodyError(
          `$[${i}].${end}`,
          'task_of_process',
          `must be the nodeId of a task of process ${processId}`,
        ),
      ),
  );
  if (errors.length > 0) throw new ValidationError(errors);
  const edges: StoredEdge[] = payload.map((edge) => ({ edgeId: newId(), ...edge, bpmnElementId: null }));
  const stamp = { by: caller.principal.principalId, at: timestamp() };
  await commitToProcess(
    caller,
    process,
    edges.map((edge) => ({ kind: 'putEdge', processId, edge, stamp })),
  );
  return edges.map(edgeView);
}

export async function removeEdge(caller: Caller, processId: string, edgeId: string): Promise<void> {
  const process = await processForChange(caller, processId);
  if (!(await findEdge(processId, edgeId))) {
    throw new NotFoundError('EDGE_NOT_FOUND', `Process ${processId} has no edge ${edgeId}`);
  }
  await commitToProcess(caller, process, [{ kind: 'deleteEdge', processId, edgeId }]);
}

const bySequence = (a: Node, b: Node) =>
  Number(a.fields.sequenceNumber ?? 0) - Number(b.fields.sequenceNumber ?? 0) ||
  a.creationDate.localeCompare(b.creationDate) ||
  a.nodeId.localeCompare(b.nodeId);

/**
 * The tasks of a diagram in their order, and the edges between them (an edge to a deleted task is gone) in
 * the order of their source tasks, then of their targets: the same diagram always reads the same.
 */
export async function diagramOf(
  processId: string,
  tasks: Node[],
  /** The edges to show instead of the current ones (a published diagram's). */
  edgesShown?: StoredEdge[],
): Promise<{ tasks: Node[]; edges: StoredEdge[] }> {
  const ordered = [...tasks].sort(bySequence);
  const position = new Map(ordered.map((task, i) => [task.nodeId, i]));
  const edges = (edgesShown ?? (await findEdges(processId)))
    .filter((edge) => position.has(edge.sourceNodeId) && position.has(edge.targetNodeId))
    .sort(
      (a, b) =>
        (position.get(a.sourceNodeId) as number) - (position.get(b.sourceNodeId) as number) ||
        (position.get(a.targetNodeId) as number) - (position.get(b.targetNodeId) as number) ||
        a.edgeId.localeCompare(b.edgeId),
    );
  return { tasks: ordered, edges };
}

export const edgeView = ({ bpmnElementId: _bpmn, ...edge }: StoredEdge): Edge => edge;

/**
 * A process's diagram as last published (draft=false): the tasks it was published with, each as its
 * published copy (a task deleted since among them; one published again on its own since as it was then
 * published), and the edges it was published with. Which tasks and edges the diagram has changes only
 * when the process is published. A process published before its copy kept its tasks shows its live tasks'
 * published copies until it is published again.
 */
export async function publishedDiagramOf(processId: string): Promise<{ tasks: Node[]; edges: StoredEdge[] }> {
  const kept = await findPublishedDiagram(processId);
  const copies = kept?.taskIds
    ? await findNodes(kept.taskIds, { copy: 'PUBLISHED' })
    : await findLiveChildren(processId, 'PUBLISHED');
  const tasks = copies
    .filter((copy) => copy.nodeType === 'TASK')
    .map((copy) => ({ ...copy, deleted: false }));
  return diagramOf(processId, tasks, kept?.edges ?? []);
}
