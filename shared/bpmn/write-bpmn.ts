/**
 * BPMN 2.0 out: the process's template (the file it was imported from, or its last export) reconciled
 * with the repository's tasks and edges. What the repository does not model (events, gateways, pools,
 * lanes, sub-processes, vendor extensions) comes back as it was imported; tasks and task-to-task flows
 * are renamed, moved, re-typed, removed or added to match the repository.
 */
import { BPMN_LIMITS } from '#shared/domain/bpmn-import.ts';
import { bpmnIdOf, IdAllocator } from './bpmn-ids.ts';
import type { DiagramEdge, DiagramTask } from './diagram.ts';
import { type DiagramIndex, type FlowEntry, indexDiagram, type TaskEntry } from './diagram-index.ts';
import { serializeToFit } from './export-size.ts';
import { parseDefinitions } from './moddle.ts';
import type { Definitions, ModdleElement } from './moddle-elements.ts';
import { removeElements } from './model-graph.ts';
import { newDefinitions } from './new-definitions.ts';
import { syncEdges } from './sync-edges.ts';
import { orderTasks, syncTasks } from './sync-tasks.ts';
import type { WriteContext } from './write-context.ts';
import { nestingDepth } from './xml-markup.ts';

/**
 * The template was accepted by readBpmn once; one that no longer parses, has lost its process, or nests
 * deeper than an import takes now (one taken before there was a limit), is replaced by a fresh file rather
 * than failing the export: the repository's tasks and edges are the data.
 */
async function parseTemplate(template: string): Promise<Definitions | undefined> {
  if (nestingDepth(template) > BPMN_LIMITS.nestingDepth) return undefined;
  try {
    const { definitions } = await parseDefinitions(template);
    return indexDiagram(definitions).processes.length > 0 ? definitions : undefined;
  } catch {
    return undefined;
  }
}

/** Pairs items with the template entries their ids name, each entry at most once. */
function match<T, E>(items: T[], idOf: (item: T) => string, entries: Map<string, E>): Map<T, E> {
  const matches = new Map<T, E>();
  const claimed = new Set<E>();
  for (const item of items) {
    const entry = entries.get(idOf(item));
    if (entry && !claimed.has(entry)) {
      matches.set(item, entry);
      claimed.add(entry);
    }
  }
  return matches;
}

/** Template tasks and task-to-task flows the repository no longer has. */
function staleElements(
  index: DiagramIndex,
  taskMatches: Map<DiagramTask, TaskEntry>,
  flowMatches: Map<DiagramEdge, FlowEntry>,
): ModdleElement[] {
  const keptTasks = new Set([...taskMatches.values()]);
  const keptFlows = new Set([...flowMatches.values()]);
  return [
    ...[...index.tasks.values()].filter((entry) => !keptTasks.has(entry)).map((entry) => entry.element),
    ...[...index.taskFlows.values()].filter((entry) => !keptFlows.has(entry)).map((entry) => entry.flow),
  ];
}

/** Makes the definitions' tasks and task-to-task flows those of the repository (see writeBpmn). */
function reconcile(definitions: Definitions, tasks: DiagramTask[], edges: DiagramEdge[]): void {
  const index = indexDiagram(definitions);
  const ordered = [...tasks].sort((a, b) => a.sequenceNumber - b.sequenceNumber);
  const nodeIds = new Set(tasks.map((task) => task.nodeId));
  const drawable = edges.filter((edge) => nodeIds.has(edge.sourceNodeId) && nodeIds.has(edge.targetNodeId));
  const taskMatches = match(
    ordered,
    (task) => task.bpmnElementId ?? bpmnIdOf('Task', task.nodeId),
    index.tasks,
  );
  const flowMatches = match(
    drawable,
    (edge) => edge.bpmnElementId ?? bpmnIdOf('Flow', edge.edgeId),
    index.taskFlows,
  );

  const removed = removeElements(definitions, staleElements(index, taskMatches, flowMatches));
  // A kept flow can still go with a removed task when the edge has been reconnected since: it is recreated.
  for (const [edge, entry] of flowMatches) if (removed.has(entry.flow)) flowMatches.delete(edge);

  // Ids are collected after the removal, so an id that went with a removed element can be given again.
  const context: WriteContext = { definitions, index, ids: new IdAllocator(definitions) };
  const placed = syncTasks(context, ordered, taskMatches);
  orderTasks(context, ordered, placed);
  syncEdges(context, drawable, placed, flowMatches);
}

/**
 * Writes the process as BPMN 2.0 XML with diagram interchange.
 *
 * - Without a template (or with one that no longer parses): a new file with one process
 *   (`Process_<nodeId>`) and one diagram.
 * - A task is the template element whose id is its bpmnElementId (else `Task_<nodeId>`). Its name is
 *   rewritten when it differs from what the import read; its shape's values where they differ once rounded;
 *   a changed bpmnKind replaces the element by one of the new type, keeping id, name, flows, lane and shape.
 *   A task the template lacks is created (with a shape) in the first pool's process, or the first process.
 * - Template tasks the repository no longer has are removed with what cannot exist without them: their
 *   flows (to tasks or not), boundary events, message flows and associations, and the shapes and edges
 *   drawing those; lanes and other elements stop referring to them.
 * - An edge is the template flow whose id is its bpmnElementId (else `Flow_<edgeId>`): its ends are set to
 *   its tasks, its drawn first and last waypoints to the ports where they differ once rounded. One the
 *   template lacks is created with an edge from port to port. Template flows between two tasks that the
 *   repository no longer has are removed. An edge whose ends are not both in `tasks` is left out.
 * - Indented, or without indentation when indented it would not fit in the function's answer
 *   (BPMN_LIMITS.exportBytes); a template that does not fit even then (imported before the import checked
 *   that, or with many tasks added since) is replaced by a fresh file.
 */
export async function writeBpmn(
  template: string | null,
  process: { nodeId: string; name: string },
  tasks: DiagramTask[],
  edges: DiagramEdge[],
): Promise<string> {
  const fromTemplate = template === null ? undefined : await parseTemplate(template);
  if (fromTemplate) {
    reconcile(fromTemplate, tasks, edges);
    const { xml, fits } = await serializeToFit(fromTemplate);
    if (fits) return xml;
  }
  const fresh = newDefinitions(process);
  reconcile(fresh, tasks, edges);
  return (await serializeToFit(fresh)).xml;
}
