/**
 * What a process's diagram is made of, as the repository keeps it and as a BPMN import finds it. Pure data:
 * read-bpmn.ts and write-bpmn.ts translate between these and BPMN 2.0 XML.
 */

/** A point on the diagram, in whole pixels. */
export interface Point {
  x: number;
  y: number;
}

/** A task of a process as the repository keeps it (a TASK node). */
export interface DiagramTask {
  /** Upper-case UUID of the TASK node. */
  nodeId: string;
  name: string;
  /** Orders the tasks of the process (integer). */
  sequenceNumber: number;
  topLeftX: number;
  topLeftY: number;
  width: number;
  height: number;
  /** The BPMN type it was imported as, e.g. 'bpmn:UserTask'; absent means 'bpmn:Task'. */
  bpmnKind?: string;
  /** The id of its BPMN element, when it came from an import (or was exported before). */
  bpmnElementId?: string;
}

/** A connection between two tasks of the process (a sequence flow). */
export interface DiagramEdge {
  edgeId: string;
  /** nodeIds of tasks of the same process. */
  sourceNodeId: string;
  targetNodeId: string;
  sourcePortPoint: Point;
  targetPortPoint: Point;
  bpmnElementId?: string;
}

/** What an import found, keyed by BPMN ids (the caller assigns nodeIds). */
export interface ImportedTask extends Omit<DiagramTask, 'nodeId' | 'bpmnElementId' | 'bpmnKind'> {
  bpmnElementId: string;
  bpmnKind: string;
}

export interface ImportedEdge
  extends Omit<DiagramEdge, 'edgeId' | 'sourceNodeId' | 'targetNodeId' | 'bpmnElementId'> {
  bpmnElementId: string;
  sourceElementId: string;
  targetElementId: string;
}

/** An element of the file that is not a task or a task-to-task flow: kept with the process (the template) or not kept. */
export interface ReportedElement {
  type: string;
  id: string | null;
  name: string | null;
  kept: boolean;
  reason: string;
}

export interface ImportedDiagram {
  tasks: ImportedTask[];
  edges: ImportedEdge[];
  /** Every element that is not imported as a task or an edge, said plainly: nothing is dropped silently. */
  report: ReportedElement[];
  /** The file as received: stored with the process and used by writeBpmn to give back what was imported. */
  template: string;
}
