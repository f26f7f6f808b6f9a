/**
 * BPMN 2.0 in and out of a process. An import makes the file's tasks the process's tasks and its flows
 * between tasks the edges; the file itself is kept with the process, so an export gives back every other
 * element it held (events, gateways, lanes, pools, ...) with the diagram changes made since.
 */
import type { DiagramEdge, DiagramTask, ImportedDiagram, ReportedElement } from '#shared/bpmn/diagram.ts';
import { readBpmn } from '#shared/bpmn/read-bpmn.ts';
import { writeBpmn } from '#shared/bpmn/write-bpmn.ts';
import { findLiveChildren } from '#shared/data/node-repository.ts';
import type { NodeWrite } from '#shared/data/node-write-path.ts';
import type { BpmnImport } from '#shared/domain/bpmn-import.ts';
import { ConflictError, NotFoundError } from '#shared/domain/errors.ts';
import { type Node, newId, timestamp, toBaseElement } from '#shared/domain/node.ts';
import { COORDINATE_RANGE, EXTENT_RANGE, taskFieldsOf } from '#shared/domain/node-kinds/task.ts';
import { LIMITS } from '#shared/domain/node-payloads.ts';
import type { StoredEdge } from '#shared/domain/process-diagram.ts';
import type { Caller } from '#shared/domain/user.ts';
import { cutText } from '#shared/domain/well-formed-text.ts';
import { getNode } from './node-reads.ts';
import { commitToProcess } from './process-changes.ts';
import {
  diagramOf,
  edgeView,
  newTask,
  processForChange,
  publishedDiagramOf,
} from './process-diagram-service.ts';

/**
 * The imported files kept in S3, loaded when first used: an export of a process that never came from a
 * BPMN file reads none, and the S3 client is a third of the bundle a cold start would parse.
 */
const bpmnTemplates = () => import('#shared/data/bpmn-templates.ts');

/** The process's tasks (their working copies). */
const tasksOf = async (processId: string) =>
  (await findLiveChildren(processId)).filter((child) => child.nodeType === 'TASK');

/**
 * The process as a BPMN 2.0 file, and a file name for it; draft false: as last published (its published
 * tasks, and the edges it was published with), as its published retrieve shows it.
 */
export async function exportProcessBpmn(
  caller: Caller,
  processId: string,
  draft = true,
): Promise<{ xml: string; fileName: string }> {
  const process = await getNode(caller, processId, draft);
  if (process.nodeType !== 'PROCESS')
    throw new NotFoundError('NODE_NOT_FOUND', `No process with id ${processId}`);
  const { tasks, edges } = draft
    ? await diagramOf(processId, await tasksOf(processId))
    : await publishedDiagramOf(processId);
  const templateKey = process.fields.bpmnTemplateKey;
  const template =
    typeof templateKey === 'string' ? await (await bpmnTemplates()).readBpmnTemplate(templateKey) : null;
  const xml = await writeBpmn(
    template,
    { nodeId: process.nodeId, name: process.name },
    tasks.map(toDiagramTask),
    edges.map(toDiagramEdge),
  );
  // The name as it is (Content-Disposition carries it as UTF-8, with an ASCII fallback); a slash in it is
  // part of the name, not a folder.
  return { xml, fileName: `${process.name.replace(/[/\\]/g, '_')}.bpmn` };
}

function toDiagramTask(task: Node): DiagramTask {
  const { bpmnKind, bpmnElementId, ...geometry } = taskFieldsOf(task.fields);
  return {
    nodeId: task.nodeId,
    name: task.name,
    ...geometry,
    ...(bpmnKind ? { bpmnKind } : {}),
    ...(bpmnElementId ? { bpmnElementId } : {}),
  };
}

function toDiagramEdge({ bpmnElementId, ...edge }: StoredEdge): DiagramEdge {
  return { ...edge, ...(bpmnElementId ? { bpmnElementId } : {}) };
}

/**
 * Within the ranges the repository keeps (names, coordinates, sizes, edge ends), said in the report when
 * changed. readBpmn has refused values that are not finite numbers.
 */
function withinRanges(imported: ImportedDiagram): { diagram: ImportedDiagram; adjusted: ReportedElement[] } {
  const adjusted: ReportedElement[] = [];
  const clamp = (value: number, { min, max }: { min: number; max: number }) =>
    Math.min(max, Math.max(min, value));
  const tasks = imported.tasks.map((task) => {
    const fitted = {
      ...task,
      name: cutText(task.name, LIMITS.nameLength),
      topLeftX: clamp(task.topLeftX, COORDINATE_RANGE),
      topLeftY: clamp(task.topLeftY, COORDINATE_RANGE),
      width: clamp(task.width, EXTENT_RANGE),
      height: clamp(task.height, EXTENT_RANGE),
    };
    if (JSON.stringify(fitted) !== JSON.stringify(task)) {
      adjusted.push({
        type: task.bpmnKind,
        id: task.bpmnElementId,
        name: fitted.name,
        kept: true,
        reason: `imported with its name cut to at most ${LIMITS.nameLength} characters (between characters) or its bounds brought within range`,
      });
    }
    return fitted;
  });
  // Drawn ends are stored as the diagram's port points, which keep the same coordinate range as the tasks.
  const point = ({ x, y }: { x: number; y: number }) => ({
    x: clamp(x, COORDINATE_RANGE),
    y: clamp(y, COORDINATE_RANGE),
  });
  const edges = imported.edges.map((edge) => {
    const fitted = {
      ...edge,
      sourcePortPoint: point(edge.sourcePortPoint),
      targetPortPoint: point(edge.targetPortPoint),
    };
    if (JSON.stringify(fitted) !== JSON.stringify(edge)) {
      adjusted.push({
        type: 'bpmn:SequenceFlow',
        id: edge.bpmnElementId,
        name: null,
        kept: true,
        reason: 'imported with its ends brought within range',
      });
    }
    return fitted;
  });
  return { diagram: { ...imported, tasks, edges }, adjusted };
}

/** Imports a BPMN file into a process that has no tasks yet. */
export async function importProcessBpmn(caller: Caller, processId: string, xml: string): Promise<BpmnImport> {
  const process = await processForChange(caller, processId);
  const { diagram, adjusted } = withinRanges(await readBpmn(xml));
  if ((await tasksOf(processId)).length > 0) {
    throw new ConflictError(
      'PROCESS_NOT_EMPTY',
      'The process has tasks already; import into a process without tasks (or delete its tasks first)',
    );
  }
  const at = timestamp();
  const tasks = new Map(
    diagram.tasks.map((task) => [
      task.bpmnElementId,
      newTask(
        caller,
        process,
        task.name,
        {
          sequenceNumber: task.sequenceNumber,
          topLeftX: task.topLeftX,
          topLeftY: task.topLeftY,
          width: task.width,
          height: task.height,
          bpmnKind: task.bpmnKind,
          bpmnElementId: task.bpmnElementId,
        },
        at,
      ),
    ]),
  );
  const nodeIdOf = (elementId: string) => tasks.get(elementId)?.nodeId as string;
  const stamp = { by: caller.principal.principalId, at };
  const edges: StoredEdge[] = diagram.edges.map((edge) => ({
    edgeId: newId(),
    sourceNodeId: nodeIdOf(edge.sourceElementId),
    sourcePortPoint: edge.sourcePortPoint,
    targetNodeId: nodeIdOf(edge.targetElementId),
    targetPortPoint: edge.targetPortPoint,
    bpmnElementId: edge.bpmnElementId,
  }));
  const bpmnTemplateKey = await (await bpmnTemplates()).saveBpmnTemplate(processId, diagram.template);
  const committed = await commitToProcess(
    caller,
    process,
    [
      ...[...tasks.values()].map((node): NodeWrite => ({ kind: 'create', node })),
      ...edges.map((edge): NodeWrite => ({ kind: 'putEdge', processId, edge, stamp })),
    ],
    { processFields: { bpmnTemplateKey }, onRace: 'fail' },
  ).catch(async (error: unknown) => {
    // Should a commit that reported failure have landed after all, the export finds no file and writes the
    // diagram without what the import kept beyond tasks and flows: less, never wrong.
    await (await bpmnTemplates()).discardBpmnTemplate(bpmnTemplateKey);
    throw error;
  });
  return {
    process: toBaseElement(committed),
    tasks: [...tasks.values()].map(toBaseElement),
    edges: edges.map(edgeView),
    report: [...adjusted, ...diagram.report],
  };
}
