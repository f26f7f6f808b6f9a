/**
 * What the BPMN tests share: the OMG MIWG reference models, a repository's view of an import (nodeIds and
 * edgeIds assigned, BPMN ids kept), and snapshots of a parsed file that a round trip must leave unchanged.
 * Files are parsed here with bpmn-moddle directly, not through the code under test.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { BpmnModdle } from 'bpmn-moddle';
import { expect } from 'vitest';
import type { DiagramEdge, DiagramTask, ImportedDiagram } from '#shared/bpmn/diagram.ts';
import { TASK_TYPES } from '#shared/bpmn/task-types.ts';

export { TASK_TYPES };

export const MIWG_REFERENCE = resolve(import.meta.dirname, '../../fixtures/bpmn-miwg');

export const referenceFiles = (): string[] =>
  readdirSync(MIWG_REFERENCE)
    .filter((name) => name.endsWith('.bpmn'))
    .sort();

export const readReference = (name: string): string => readFileSync(resolve(MIWG_REFERENCE, name), 'utf8');

export const PROCESS = { nodeId: '7C3F3F0E-2B7B-4C1E-9C43-7D1A9B0E5F21', name: 'Imported process' };

/** Upper-case UUIDs that start with a digit, as the repository's may: BPMN ids must not. */
export const uuid = (n: number, kind = 0): string =>
  `${String(kind).padStart(8, '0')}-0000-4000-8000-${String(n).padStart(12, '0')}`;

export interface RepositoryState {
  tasks: DiagramTask[];
  edges: DiagramEdge[];
}

/** What the repository keeps after an import. */
export function asRepository(imported: ImportedDiagram): RepositoryState {
  const nodeIdOf = new Map<string, string>();
  const tasks = imported.tasks.map(({ bpmnElementId, bpmnKind, ...task }, at) => {
    const nodeId = uuid(at, 1);
    nodeIdOf.set(bpmnElementId, nodeId);
    return { ...task, nodeId, bpmnElementId, bpmnKind };
  });
  const edges = imported.edges.map(({ bpmnElementId, sourceElementId, targetElementId, ...edge }, at) => ({
    ...edge,
    edgeId: uuid(at, 2),
    sourceNodeId: nodeIdOf.get(sourceElementId) as string,
    targetNodeId: nodeIdOf.get(targetElementId) as string,
    bpmnElementId,
  }));
  return { tasks, edges };
}

export const taskByName = (state: RepositoryState, name: string): DiagramTask => {
  const task = state.tasks.find((t) => t.name === name);
  if (!task) throw new Error(`no task named ${name}`);
  return task;
};

const moddle = new BpmnModdle();

export async function parseModel(
  xml: string,
): Promise<{ definitions: any; warnings: string[]; ids: string[] }> {
  const { rootElement, warnings, elementsById } = await moddle.fromXML(xml);
  return {
    definitions: rootElement,
    warnings: warnings.map((w) => w.message).filter((m) => !m.startsWith('unsupported document encoding')),
    ids: Object.keys(elementsById).sort(),
  };
}

/** Every element of the definitions (not the diagram interchange), parents first. */
export function semanticElements(definitions: any): any[] {
  const found: any[] = [];
  const visit = (element: any) => {
    found.push(element);
    for (const property of element.$descriptor?.properties ?? []) {
      if (property.isReference || property.isVirtual) continue;
      const value = element[property.name];
      for (const item of Array.isArray(value) ? value : [value]) if (item?.$type) visit(item);
    }
  };
  for (const root of definitions.rootElements ?? []) visit(root);
  return found;
}

export const processesOf = (definitions: any): any[] =>
  (definitions.rootElements ?? []).filter((e: any) => e.$type === 'bpmn:Process');

/** Tasks directly in a process: what the repository imports. */
export function topLevelTasks(definitions: any): any[] {
  return processesOf(definitions).flatMap((p) =>
    (p.flowElements ?? []).filter((e: any) => TASK_TYPES.includes(e.$type)),
  );
}

export const elementById = (definitions: any, id: string): any =>
  semanticElements(definitions).find((e) => e.id === id);

export function semanticSnapshot(definitions: any) {
  return {
    tasks: Object.fromEntries(topLevelTasks(definitions).map((t) => [t.id, { type: t.$type, name: t.name }])),
    sequenceFlows: Object.fromEntries(
      semanticElements(definitions)
        .filter((e) => e.$type === 'bpmn:SequenceFlow')
        .map((f) => [f.id, [f.sourceRef?.id, f.targetRef?.id]]),
    ),
  };
}

const boundsOf = (b: any) => b && { x: b.x, y: b.y, width: b.width, height: b.height };

/** Every shape and edge of every diagram, in order, with exactly the numbers the file holds. */
export function diSnapshot(definitions: any) {
  return (definitions.diagrams ?? []).map((diagram: any) => ({
    plane: diagram.plane?.bpmnElement?.id,
    elements: (diagram.plane?.planeElement ?? []).map((drawn: any) =>
      drawn.$type === 'bpmndi:BPMNShape'
        ? { type: drawn.$type, of: drawn.bpmnElement?.id, bounds: boundsOf(drawn.bounds) }
        : {
            type: drawn.$type,
            of: drawn.bpmnElement?.id,
            waypoints: (drawn.waypoint ?? []).map((p: any) => [p.x, p.y]),
          },
    ),
  }));
}

export const countDrawn = (definitions: any, type: string): number =>
  (definitions.diagrams ?? [])
    .flatMap((d: any) => d.plane?.planeElement ?? [])
    .filter((e: any) => e.$type === type).length;

/** Drawn elements (shapes and edges) showing `id`. */
export const drawnOf = (definitions: any, id: string): any[] =>
  (definitions.diagrams ?? [])
    .flatMap((d: any) => d.plane?.planeElement ?? [])
    .filter((e: any) => e.bpmnElement?.id === id);

const unattachedDrawings = (definitions: any): Set<string> =>
  new Set(
    (definitions.diagrams ?? [])
      .flatMap((d: any) => d.plane?.planeElement ?? [])
      .filter((e: any) => !e.bpmnElement)
      .map((e: any) => e.id),
  );

/**
 * What bpmn-js needs to open a file: every reference resolves (the parser warns otherwise), every plane,
 * shape and edge names its BPMN element, every edge has two waypoints, every flow both ends. A drawing
 * that names no element in the template already (C.7.0 has one) is the template's, not the export's.
 */
export async function expectOpenable(xml: string, template?: string): Promise<any> {
  const tolerated = template
    ? unattachedDrawings((await parseModel(template)).definitions)
    : new Set<string>();
  const { definitions, warnings } = await parseModel(xml);
  expect(warnings).toEqual([]);
  expect(processesOf(definitions).length).toBeGreaterThan(0);
  for (const diagram of definitions.diagrams ?? []) {
    expect(diagram.plane?.bpmnElement, `plane of ${diagram.id}`).toBeDefined();
    for (const drawn of diagram.plane.planeElement ?? []) {
      if (!tolerated.has(drawn.id)) expect(drawn.bpmnElement, `element of ${drawn.id}`).toBeDefined();
      if (drawn.$type === 'bpmndi:BPMNEdge') expect(drawn.waypoint?.length ?? 0).toBeGreaterThanOrEqual(2);
    }
  }
  for (const flow of semanticElements(definitions).filter((e) => e.$type === 'bpmn:SequenceFlow')) {
    expect(flow.sourceRef, `source of ${flow.id}`).toBeDefined();
    expect(flow.targetRef, `target of ${flow.id}`).toBeDefined();
  }
  return definitions;
}
