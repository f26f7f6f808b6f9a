/** The generic removal and replacement that exports rely on, checked on the parsed model itself. */
import { describe, expect, it } from 'vitest';
import { createElement, parseDefinitions, serializeDefinitions } from '#shared/bpmn/moddle.ts';
import type { ModdleElement } from '#shared/bpmn/moddle-elements.ts';
import { containedElements, removeElements, replaceElement } from '#shared/bpmn/model-graph.ts';

const fixture = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI"
  xmlns:dc="http://www.omg.org/spec/DD/20100524/DC" id="D" targetNamespace="urn:t">
  <bpmn:process id="P">
    <bpmn:laneSet id="LS"><bpmn:lane id="L"><bpmn:flowNodeRef>A</bpmn:flowNodeRef><bpmn:flowNodeRef>G</bpmn:flowNodeRef></bpmn:lane></bpmn:laneSet>
    <bpmn:exclusiveGateway id="G" default="ToA"/>
    <bpmn:scriptTask id="A" name="Run" scriptFormat="js"><bpmn:documentation>Why</bpmn:documentation><bpmn:incoming>ToA</bpmn:incoming><bpmn:script>go()</bpmn:script></bpmn:scriptTask>
    <bpmn:boundaryEvent id="Timer" attachedToRef="A"/>
    <bpmn:endEvent id="E"/>
    <bpmn:sequenceFlow id="ToA" sourceRef="G" targetRef="A"/>
    <bpmn:sequenceFlow id="Late" sourceRef="Timer" targetRef="E"/>
    <bpmn:textAnnotation id="Note"/>
    <bpmn:association id="Says" sourceRef="A" targetRef="Note"/>
  </bpmn:process>
  <bpmndi:BPMNDiagram id="Diagram"><bpmndi:BPMNPlane id="Plane" bpmnElement="P">
    <bpmndi:BPMNShape id="A_di" bpmnElement="A"><dc:Bounds x="0" y="0" width="100" height="80"/></bpmndi:BPMNShape>
    <bpmndi:BPMNShape id="Timer_di" bpmnElement="Timer"><dc:Bounds x="80" y="60" width="36" height="36"/></bpmndi:BPMNShape>
    <bpmndi:BPMNShape id="E_di" bpmnElement="E"><dc:Bounds x="300" y="60" width="36" height="36"/></bpmndi:BPMNShape>
  </bpmndi:BPMNPlane></bpmndi:BPMNDiagram>
</bpmn:definitions>`;

async function model() {
  const { definitions } = await parseDefinitions(fixture);
  const all = containedElements(definitions);
  const byId = (id: string) => all.find((e) => e.id === id) as any;
  return {
    definitions,
    byId,
    ids: () =>
      containedElements(definitions)
        .map((e) => e.id)
        .filter(Boolean),
  };
}

describe('removeElements', () => {
  it('takes with a task what cannot exist without it, and every reference to any of it', async () => {
    const { definitions, byId, ids } = await model();
    const removed = removeElements(definitions, [byId('A')]);

    expect(
      [...removed]
        .map((e: ModdleElement) => e.id)
        .filter(Boolean)
        .sort(),
    ).toEqual(['A', 'A_di', 'Late', 'Says', 'Timer', 'Timer_di', 'ToA'].sort());
    expect(ids()).toEqual(['D', 'P', 'LS', 'L', 'G', 'E', 'Note', 'Diagram', 'Plane', 'E_di']);
    expect(byId('L').flowNodeRef).toEqual([byId('G')]);
    expect(byId('G').default).toBeUndefined();
    expect(byId('G').outgoing ?? []).toEqual([]);
    const xml = await serializeDefinitions(definitions, true);
    expect(xml).not.toMatch(/"A"|ToA|Timer|undefined/);
  });
});

describe('replaceElement', () => {
  it('puts the new element in the old one’s place, for its container and everything referring to it', async () => {
    const { definitions, byId } = await model();
    const original = byId('A');
    const replacement = createElement<any>('bpmn:UserTask');
    replaceElement(definitions, original, replacement);

    expect(replacement).toMatchObject({ id: 'A', name: 'Run' });
    expect(replacement.documentation[0].text).toBe('Why');
    expect(replacement.script).toBeUndefined();
    expect(byId('P').flowElements).toContain(replacement);
    expect(byId('P').flowElements).not.toContain(original);
    expect(byId('ToA').targetRef).toBe(replacement);
    expect(byId('Timer').attachedToRef).toBe(replacement);
    expect(byId('Says').sourceRef).toBe(replacement);
    expect(byId('L').flowNodeRef).toEqual([replacement, byId('G')]);
    expect(byId('A_di').bpmnElement).toBe(replacement);
    expect(replacement.incoming).toEqual([byId('ToA')]);
    expect(await serializeDefinitions(definitions, true)).toMatch(/<bpmn:userTask id="A" name="Run">/);
  });
});
