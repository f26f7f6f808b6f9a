/** The empty BPMN file an export starts from when the process has no template: one process, one diagram. */
import { bpmnIdOf } from './bpmn-ids.ts';
import { createElement } from './moddle.ts';
import type { Definitions, Diagram, Plane, Process } from './moddle-elements.ts';

export function newDefinitions(process: { nodeId: string; name: string }): Definitions {
  const bpmnProcess = createElement<Process>('bpmn:Process', {
    id: bpmnIdOf('Process', process.nodeId),
    name: process.name,
    isExecutable: false,
  });
  const plane = createElement<Plane>('bpmndi:BPMNPlane', {
    id: bpmnIdOf('BPMNPlane', process.nodeId),
    bpmnElement: bpmnProcess,
  });
  const diagram = createElement<Diagram>('bpmndi:BPMNDiagram', {
    id: bpmnIdOf('BPMNDiagram', process.nodeId),
    plane,
  });
  const definitions = createElement<Definitions>('bpmn:Definitions', {
    id: bpmnIdOf('Definitions', process.nodeId),
    targetNamespace: 'http://bpmn.io/schema/bpmn',
    exporter: 'Content Repository',
    rootElements: [bpmnProcess],
    diagrams: [diagram],
  });
  bpmnProcess.$parent = definitions;
  diagram.$parent = definitions;
  plane.$parent = diagram;
  return definitions;
}
