/**
 * Finds, in parsed definitions, what the repository models: the tasks directly in a process, the sequence
 * flows between two of them, and the diagram interchange (shapes, edges, planes) that draws them. Both the
 * import and the export read a file through this, so they agree on what is a task and what is not.
 */
import type {
  Collaboration,
  Definitions,
  Edge,
  FlowNode,
  ModdleElement,
  Plane,
  Process,
  SequenceFlow,
  Shape,
} from './moddle-elements.ts';
import { isTaskType } from './task-types.ts';

export interface TaskEntry {
  element: FlowNode;
  process: Process;
}

export interface FlowEntry {
  flow: SequenceFlow;
  process: Process;
}

export interface DiagramIndex {
  processes: Process[];
  /** Task elements directly in a process, by id, in document order. */
  tasks: Map<string, TaskEntry>;
  /** Task elements without an id: nothing could refer to them, so they stay BPMN-only. */
  anonymousTasks: FlowNode[];
  /** Sequence flows directly in a process whose both ends are indexed tasks, by id, in document order. */
  taskFlows: Map<string, FlowEntry>;
  /** The first shape drawing each BPMN element (a file may draw one in several diagrams). */
  shapes: Map<ModdleElement, Shape>;
  /** The first edge drawing each BPMN element. */
  edges: Map<ModdleElement, Edge>;
  /** The plane each shape or edge sits on. */
  planeOf: Map<ModdleElement, Plane>;
  planes: Plane[];
}

export function indexDiagram(definitions: Definitions): DiagramIndex {
  const processes = (definitions.rootElements ?? []).filter((e): e is Process =>
    e.$instanceOf('bpmn:Process'),
  );
  const index: DiagramIndex = {
    processes,
    tasks: new Map(),
    anonymousTasks: [],
    taskFlows: new Map(),
    shapes: new Map(),
    edges: new Map(),
    planeOf: new Map(),
    planes: [],
  };
  for (const process of processes) {
    for (const element of process.flowElements ?? []) {
      if (!isTaskType(element.$type)) continue;
      if (element.id) index.tasks.set(element.id, { element, process });
      else index.anonymousTasks.push(element);
    }
  }
  const isIndexedTask = (element: ModdleElement | undefined) =>
    element?.id !== undefined && index.tasks.get(element.id)?.element === element;
  for (const process of processes) {
    for (const element of process.flowElements ?? []) {
      const flow = element as SequenceFlow;
      if (!flow.id || !flow.$instanceOf('bpmn:SequenceFlow')) continue;
      if (isIndexedTask(flow.sourceRef) && isIndexedTask(flow.targetRef)) {
        index.taskFlows.set(flow.id, { flow, process });
      }
    }
  }
  for (const diagram of definitions.diagrams ?? []) {
    const plane = diagram.plane;
    if (!plane) continue;
    index.planes.push(plane);
    for (const drawn of plane.planeElement ?? []) {
      index.planeOf.set(drawn, plane);
      const bpmnElement = (drawn as Shape | Edge).bpmnElement;
      if (!bpmnElement) continue;
      if (drawn.$instanceOf('bpmndi:BPMNShape') && !index.shapes.has(bpmnElement)) {
        index.shapes.set(bpmnElement, drawn);
      } else if (drawn.$instanceOf('bpmndi:BPMNEdge') && !index.edges.has(bpmnElement)) {
        index.edges.set(bpmnElement, drawn);
      }
    }
  }
  return index;
}

/** The process new tasks go to: the first pool's when the file has a collaboration, else the first one. */
export function mainProcess(definitions: Definitions, index: DiagramIndex): Process | undefined {
  for (const root of definitions.rootElements ?? []) {
    if (!root.$instanceOf('bpmn:Collaboration')) continue;
    for (const participant of (root as Collaboration).participants ?? []) {
      const process = index.processes.find((p) => p === participant.processRef);
      if (process) return process;
    }
  }
  return index.processes[0];
}

/** The plane that draws a process: its own, the one of a collaboration it is a pool of, or the first one. */
export function planeShowing(process: Process, index: DiagramIndex): Plane | undefined {
  const shows = (plane: Plane) => {
    const shown = plane.bpmnElement;
    if (shown === process) return true;
    return (
      shown?.$instanceOf('bpmn:Collaboration') === true &&
      ((shown as Collaboration).participants ?? []).some((p) => p.processRef === process)
    );
  };
  return index.planes.find(shows) ?? index.planes[0];
}
