/**
 * Brings the model's task elements in line with the repository's tasks: updates the ones the file already
 * has, creates the others, and orders each process's tasks by sequence number. Tasks the repository no
 * longer has are removed beforehand (write-bpmn.ts).
 */

import { bpmnIdOf } from './bpmn-ids.ts';
import type { DiagramTask } from './diagram.ts';
import type { TaskEntry } from './diagram-index.ts';
import { mainProcess } from './diagram-index.ts';
import { addShape, fitShape, planeFor } from './diagram-interchange.ts';
import { type Box, SHAPELESS_BOX, sameBox } from './geometry.ts';
import { createElement } from './moddle.ts';
import { type FlowNode, listOf, type ModdleElement } from './moddle-elements.ts';
import { replaceElement } from './model-graph.ts';
import { DEFAULT_TASK_TYPE, importedTaskName, isTaskType, keepableName } from './task-types.ts';
import type { PlacedTask, WriteContext } from './write-context.ts';

const boxOfTask = (task: DiagramTask): Box => ({
  topLeftX: task.topLeftX,
  topLeftY: task.topLeftY,
  width: task.width,
  height: task.height,
});

/** The BPMN type to write; a kind that is not a BPMN task type is written as a plain task. */
const kindOf = (task: DiagramTask): string => (isTaskType(task.bpmnKind) ? task.bpmnKind : DEFAULT_TASK_TYPE);

/**
 * A task the file already has. A changed kind replaces the element by one of the new type that keeps its
 * id, name, flows, lanes and shape (references to it are redirected); what only the old type has (a script
 * task's script, a service task's operation) goes with the old type.
 */
function updateTask(context: WriteContext, entry: TaskEntry, task: DiagramTask): PlacedTask {
  let element: FlowNode = entry.element;
  const shape = context.index.shapes.get(element);
  const kind = kindOf(task);
  if (element.$type !== kind) {
    const replacement = createElement<FlowNode>(kind);
    replaceElement(context.definitions, element, replacement);
    element = replacement;
  }
  // The import named an unnamed task after its id, trimmed names and made them keepable: that is no
  // rename, but the name is written as the import read it, as XML cannot carry what was made keepable.
  if (importedTaskName(element) !== task.name) element.name = task.name;
  else if (element.name) element.name = keepableName(element.name);
  const box = boxOfTask(task);
  if (shape) fitShape(shape, box);
  // A task the file did not draw was imported at the shapeless default; moved since, it gets drawn.
  const drawn =
    shape ??
    (sameBox(box, SHAPELESS_BOX)
      ? undefined
      : addShape(context, planeFor(context, entry.process), element, box));
  return { element, process: entry.process, shape: drawn };
}

function createTask(context: WriteContext, task: DiagramTask): PlacedTask {
  const process = mainProcess(context.definitions, context.index);
  if (!process) throw new Error('writeBpmn: the model has no process to add a task to');
  const element = createElement<FlowNode>(kindOf(task), {
    id: context.ids.allocate(task.bpmnElementId, bpmnIdOf('Task', task.nodeId)),
    name: task.name,
  });
  element.$parent = process;
  listOf(process, 'flowElements').push(element);
  const shape = addShape(context, planeFor(context, process), element, boxOfTask(task));
  return { element, process, shape };
}

/**
 * Updates or creates the element of each task (`matches` says which template element each task is), and
 * returns where each one is, by nodeId.
 */
export function syncTasks(
  context: WriteContext,
  tasks: DiagramTask[],
  matches: Map<DiagramTask, TaskEntry>,
): Map<string, PlacedTask> {
  const placed = new Map<string, PlacedTask>();
  for (const task of tasks) {
    const entry = matches.get(task);
    placed.set(task.nodeId, entry ? updateTask(context, entry, task) : createTask(context, task));
  }
  return placed;
}

/**
 * Puts each process's tasks in sequence-number order, in the places tasks already occupy among its flow
 * elements: the order of appearance is what the next import numbers them by.
 */
export function orderTasks(
  context: WriteContext,
  tasks: DiagramTask[],
  placed: Map<string, PlacedTask>,
): void {
  const sequenceOf = new Map<ModdleElement, number>();
  for (const task of tasks) {
    const element = placed.get(task.nodeId)?.element;
    if (element) sequenceOf.set(element, task.sequenceNumber);
  }
  for (const process of context.index.processes) {
    const flowElements = listOf(process, 'flowElements');
    const slots = flowElements.flatMap((element, at) => (sequenceOf.has(element) ? [at] : []));
    const inOrder = slots
      .map((at) => flowElements[at] as ModdleElement)
      .sort((a, b) => (sequenceOf.get(a) ?? 0) - (sequenceOf.get(b) ?? 0));
    slots.forEach((at, n) => {
      flowElements[at] = inOrder[n] as ModdleElement;
    });
  }
}
