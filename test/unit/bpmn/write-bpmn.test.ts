/** How an export reconciles the template with what the repository changed since the import. */
import { describe, expect, it } from 'vitest';
import type { DiagramTask } from '#shared/bpmn/diagram.ts';
import { readBpmn } from '#shared/bpmn/read-bpmn.ts';
import { writeBpmn } from '#shared/bpmn/write-bpmn.ts';
import {
  asRepository,
  drawnOf,
  elementById,
  expectOpenable,
  PROCESS,
  parseModel,
  processesOf,
  type RepositoryState,
  readReference,
  taskByName,
  topLevelTasks,
  uuid,
} from './bpmn-test-support.ts';

async function imported(file: string) {
  const diagram = await readBpmn(readReference(file));
  return { template: diagram.template, state: asRepository(diagram) };
}

async function exported(template: string | null, state: RepositoryState) {
  const xml = await writeBpmn(template, PROCESS, state.tasks, state.edges);
  return { xml, definitions: await expectOpenable(xml, template ?? undefined) };
}

const boundsOf = (definitions: any, id: string) => {
  const [shape, ...others] = drawnOf(definitions, id);
  expect(others).toEqual([]);
  const { x, y, width, height } = shape.bounds;
  return { x, y, width, height };
};

const idsOf = (elements: any[] | undefined) => (elements ?? []).map((e) => e.id);

describe('writeBpmn with a template', () => {
  it('renames and moves a task, and leaves the other tasks as they were', async () => {
    const { template, state } = await imported('A.1.0.bpmn');
    const task = taskByName(state, 'Task 1');
    const other = taskByName(state, 'Task 2');
    Object.assign(task, { name: 'Check the order', topLeftX: 300, topLeftY: 120, width: 120 });

    const { xml, definitions } = await exported(template, state);
    const element = elementById(definitions, task.bpmnElementId as string);
    expect(element.name).toBe('Check the order');
    expect(boundsOf(definitions, element.id)).toEqual({ x: 300, y: 120, width: 120, height: task.height });
    const untouched = elementById(definitions, other.bpmnElementId as string);
    expect(untouched.name).toBe('Task 2');
    expect(boundsOf(definitions, untouched.id)).toEqual({ x: 390, y: 317, width: 83, height: 68 });

    const reimported = await readBpmn(xml);
    expect(reimported.tasks[0]).toMatchObject({
      name: 'Check the order',
      topLeftX: 300,
      topLeftY: 120,
      width: 120,
    });
  });

  it("keeps another tool's fractional bounds and untrimmed name where the repository's values match them", async () => {
    const { template, state } = await imported('A.4.1.bpmn');
    const task = taskByName(state, 'Task 1');
    const id = task.bpmnElementId as string;
    const before = boundsOf((await parseModel(template)).definitions, id);
    expect(before.y).toBe(224.44999999999996);
    task.topLeftX += 10;

    const { definitions } = await exported(template, state);
    expect(boundsOf(definitions, id)).toEqual({ ...before, x: Math.round(before.x) + 10 });
    expect(elementById(definitions, id).name).toBe('Task 1 ');
  });

  it('removes a deleted task with its flows, message flows, drawings and lane reference', async () => {
    const { template, state } = await imported('A.4.0.bpmn');
    const deleted = taskByName(state, 'Task 5');
    const id = deleted.bpmnElementId as string;
    const input = (await parseModel(template)).definitions;
    const task = elementById(input, id);
    const touching = [...task.incoming, ...task.outgoing].map((f: any) => f.id);
    const messageFlow = '_c311cc87-677e-47a4-bdb1-8744c4ec3147';
    expect(touching).toHaveLength(2);
    expect(elementById(input, messageFlow).sourceRef.id).toBe(id);
    state.tasks = state.tasks.filter((t) => t !== deleted);

    const { definitions } = await exported(template, state);
    for (const gone of [id, ...touching, messageFlow]) {
      expect(elementById(definitions, gone), gone).toBeUndefined();
      expect(drawnOf(definitions, gone), gone).toEqual([]);
    }
    const lane = elementById(definitions, '_17bebb0f-f31e-475a-b1b1-76fcc2da172b');
    expect(idsOf(lane.flowNodeRef)).not.toContain(id);
    expect(idsOf(lane.flowNodeRef)).toHaveLength(4);
    const subProcess = elementById(definitions, '_ee35fa2c-dfea-40cf-a469-845b765a7b50');
    expect(idsOf(subProcess.outgoing)).toEqual([]);
    expect(idsOf(elementById(definitions, '_7c434d45-d319-457b-9fd6-853c218bc3f1').incoming)).toEqual([]);
    // Everything else is still there.
    expect(topLevelTasks(definitions)).toHaveLength(state.tasks.length);
    expect(elementById(definitions, '_b467921a-ef7b-44c5-bf78-fd624c400d17')).toBeDefined();
  });

  it('removes a deleted edge with its drawing and keeps both tasks', async () => {
    const { template, state } = await imported('A.1.0.bpmn');
    const [deleted, kept] = state.edges as [(typeof state.edges)[0], (typeof state.edges)[0]];
    state.edges = [kept];

    const { definitions } = await exported(template, state);
    const flowId = deleted.bpmnElementId as string;
    expect(elementById(definitions, flowId)).toBeUndefined();
    expect(drawnOf(definitions, flowId)).toEqual([]);
    expect(topLevelTasks(definitions)).toHaveLength(3);
    const flowIds = topLevelTasks(definitions).flatMap((t) => [...idsOf(t.incoming), ...idsOf(t.outgoing)]);
    expect(flowIds).not.toContain(flowId);
    expect(flowIds).toContain(kept.bpmnElementId);
  });

  it('adds a new task and a new edge, each with its drawing', async () => {
    const { template, state } = await imported('A.1.0.bpmn');
    const from = taskByName(state, 'Task 3');
    const added: DiagramTask = {
      nodeId: uuid(99),
      name: 'Archive',
      sequenceNumber: 4,
      topLeftX: 700,
      topLeftY: 317,
      width: 100,
      height: 80,
    };
    state.tasks.push(added);
    state.edges.push({
      edgeId: uuid(98),
      sourceNodeId: from.nodeId,
      targetNodeId: added.nodeId,
      sourcePortPoint: { x: 605, y: 351 },
      targetPortPoint: { x: 700, y: 357 },
    });

    const { xml, definitions } = await exported(template, state);
    const taskId = `Task_${uuid(99)}`;
    const flowId = `Flow_${uuid(98)}`;
    const task = elementById(definitions, taskId);
    expect(task).toMatchObject({ $type: 'bpmn:Task', name: 'Archive' });
    expect(processesOf(definitions)[0].flowElements).toContain(task);
    expect(boundsOf(definitions, taskId)).toEqual({ x: 700, y: 317, width: 100, height: 80 });
    const flow = elementById(definitions, flowId);
    expect(flow.sourceRef.id).toBe(from.bpmnElementId);
    expect(flow.targetRef).toBe(task);
    expect(idsOf(elementById(definitions, from.bpmnElementId as string).outgoing)).toContain(flowId);
    expect(idsOf(task.incoming)).toEqual([flowId]);
    const [edge] = drawnOf(definitions, flowId);
    expect(edge.waypoint.map((p: any) => [p.x, p.y])).toEqual([
      [605, 351],
      [700, 357],
    ]);

    const reimported = await readBpmn(xml);
    expect(reimported.tasks.at(-1)).toMatchObject({
      bpmnElementId: taskId,
      name: 'Archive',
      sequenceNumber: 4,
    });
    expect(reimported.edges).toContainEqual(
      expect.objectContaining({
        bpmnElementId: flowId,
        sourceElementId: from.bpmnElementId,
        targetElementId: taskId,
      }),
    );
  });

  it("adds a new task to the first pool's process, drawn on the collaboration's plane", async () => {
    const { template, state } = await imported('A.4.0.bpmn');
    state.tasks.push({
      nodeId: uuid(7),
      name: 'New',
      sequenceNumber: 99,
      topLeftX: 1,
      topLeftY: 2,
      width: 3,
      height: 4,
    });

    const { definitions } = await exported(template, state);
    const task = elementById(definitions, `Task_${uuid(7)}`);
    expect(task.$parent.id).toBe('WFP-6-1');
    const [diagram] = definitions.diagrams;
    expect(diagram.plane.bpmnElement.$type).toBe('bpmn:Collaboration');
    expect(diagram.plane.planeElement.filter((e: any) => e.bpmnElement === task)).toHaveLength(1);
  });

  it('moves the ends of a drawn edge to its ports and keeps its bends', async () => {
    const fixture = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI"
  xmlns:dc="http://www.omg.org/spec/DD/20100524/DC" xmlns:di="http://www.omg.org/spec/DD/20100524/DI" id="D" targetNamespace="urn:t">
  <bpmn:process id="P"><bpmn:task id="A"/><bpmn:task id="B"/><bpmn:sequenceFlow id="F" sourceRef="A" targetRef="B"/></bpmn:process>
  <bpmndi:BPMNDiagram id="Diagram"><bpmndi:BPMNPlane id="Plane" bpmnElement="P">
    <bpmndi:BPMNShape id="A_di" bpmnElement="A"><dc:Bounds x="0" y="0" width="100" height="80"/></bpmndi:BPMNShape>
    <bpmndi:BPMNShape id="B_di" bpmnElement="B"><dc:Bounds x="300" y="200" width="100" height="80"/></bpmndi:BPMNShape>
    <bpmndi:BPMNEdge id="F_di" bpmnElement="F">
      <di:waypoint x="100.4" y="40.2"/><di:waypoint x="200.5" y="40"/><di:waypoint x="200" y="240"/><di:waypoint x="299.6" y="240"/>
    </bpmndi:BPMNEdge>
  </bpmndi:BPMNPlane></bpmndi:BPMNDiagram>
</bpmn:definitions>`;
    const diagram = await readBpmn(fixture);
    const state = asRepository(diagram);
    const [edge] = state.edges as [(typeof state.edges)[0]];
    expect(edge.sourcePortPoint).toEqual({ x: 100, y: 40 });
    edge.targetPortPoint = { x: 300, y: 250 };

    const { definitions } = await exported(diagram.template, state);
    const [drawn] = drawnOf(definitions, 'F');
    expect(drawn.waypoint.map((p: any) => [p.x, p.y])).toEqual([
      [100.4, 40.2],
      [200.5, 40],
      [200, 240],
      [300, 250],
    ]);
  });

  it("changes a task's kind, keeping its id, name, flows, lane, message flow and shape", async () => {
    const { template, state } = await imported('A.4.0.bpmn');
    const task = taskByName(state, 'Task 5');
    const id = task.bpmnElementId as string;
    const input = (await parseModel(template)).definitions;
    const flows = [...idsOf(elementById(input, id).incoming), ...idsOf(elementById(input, id).outgoing)];
    const bounds = boundsOf(input, id);
    task.bpmnKind = 'bpmn:UserTask';

    const { xml, definitions } = await exported(template, state);
    const element = elementById(definitions, id);
    expect(element).toMatchObject({ $type: 'bpmn:UserTask', name: 'Task 5' });
    expect([...idsOf(element.incoming), ...idsOf(element.outgoing)]).toEqual(flows);
    for (const flowId of flows) {
      const flow = elementById(definitions, flowId);
      expect([flow.sourceRef, flow.targetRef]).toContain(element);
    }
    expect(elementById(definitions, '_c311cc87-677e-47a4-bdb1-8744c4ec3147').sourceRef).toBe(element);
    expect(elementById(definitions, '_17bebb0f-f31e-475a-b1b1-76fcc2da172b').flowNodeRef).toContain(element);
    expect(boundsOf(definitions, id)).toEqual(bounds);
    expect(drawnOf(definitions, id)[0].bpmnElement).toBe(element);

    const reimported = await readBpmn(xml);
    expect(reimported.tasks.find((t) => t.bpmnElementId === id)?.bpmnKind).toBe('bpmn:UserTask');
  });

  it('orders the tasks by sequence number, so the next import numbers them the same', async () => {
    const { template, state } = await imported('A.1.0.bpmn');
    for (const task of state.tasks) task.sequenceNumber = 10 - task.sequenceNumber;

    const { xml } = await exported(template, state);
    expect((await readBpmn(xml)).tasks.map((t) => t.name)).toEqual(['Task 3', 'Task 2', 'Task 1']);
  });

  it('leaves out an edge whose tasks are not both in the process', async () => {
    const { template, state } = await imported('A.1.0.bpmn');
    const [first] = state.tasks as [DiagramTask];
    state.edges.push({
      edgeId: uuid(5),
      sourceNodeId: first.nodeId,
      targetNodeId: uuid(404),
      sourcePortPoint: { x: 0, y: 0 },
      targetPortPoint: { x: 1, y: 1 },
    });

    const { definitions } = await exported(template, state);
    expect(elementById(definitions, `Flow_${uuid(5)}`)).toBeUndefined();
  });
});

describe('writeBpmn without a template', () => {
  const state: RepositoryState = {
    tasks: [
      {
        nodeId: uuid(1),
        name: 'Receive',
        sequenceNumber: 1,
        topLeftX: 0,
        topLeftY: 0,
        width: 100,
        height: 80,
        bpmnKind: 'bpmn:ReceiveTask',
      },
      {
        nodeId: uuid(2),
        name: 'Decide',
        sequenceNumber: 2,
        topLeftX: 200,
        topLeftY: 0,
        width: 100,
        height: 80,
        bpmnKind: 'not a kind',
      },
    ],
    edges: [
      {
        edgeId: uuid(3),
        sourceNodeId: uuid(1),
        targetNodeId: uuid(2),
        sourcePortPoint: { x: 100, y: 40 },
        targetPortPoint: { x: 200, y: 40 },
      },
    ],
  };

  it('writes a new file: one process, its tasks and flows, drawn on one diagram', async () => {
    const { xml, definitions } = await exported(null, state);
    expect(definitions).toMatchObject({
      exporter: 'Content Repository',
      targetNamespace: 'http://bpmn.io/schema/bpmn',
    });
    const [process, ...more] = processesOf(definitions);
    expect(more).toEqual([]);
    expect(process).toMatchObject({
      id: `Process_${PROCESS.nodeId}`,
      name: PROCESS.name,
      isExecutable: false,
    });
    expect(definitions.diagrams[0].plane.bpmnElement).toBe(process);
    expect(topLevelTasks(definitions).map((t) => [t.id, t.$type, t.name])).toEqual([
      [`Task_${uuid(1)}`, 'bpmn:ReceiveTask', 'Receive'],
      // A kind that is not a BPMN task type is written as a plain task.
      [`Task_${uuid(2)}`, 'bpmn:Task', 'Decide'],
    ]);
    expect(drawnOf(definitions, `Flow_${uuid(3)}`)).toHaveLength(1);
    expect((await readBpmn(xml)).edges).toEqual([
      {
        bpmnElementId: `Flow_${uuid(3)}`,
        sourceElementId: `Task_${uuid(1)}`,
        targetElementId: `Task_${uuid(2)}`,
        sourcePortPoint: { x: 100, y: 40 },
        targetPortPoint: { x: 200, y: 40 },
      },
    ]);
  });

  it('starts from a new file when the template no longer parses', async () => {
    for (const template of [
      'not xml',
      '<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"/>',
    ]) {
      const definitions = await expectOpenable(await writeBpmn(template, PROCESS, state.tasks, state.edges));
      expect(processesOf(definitions).map((p) => p.id)).toEqual([`Process_${PROCESS.nodeId}`]);
      expect(topLevelTasks(definitions)).toHaveLength(2);
    }
  });

  it('starts from a new file when the template nests deeper than an import takes (taken before the limit)', async () => {
    const { template } = await imported('A.1.0.bpmn');
    const deep = template.replace(
      '</semantic:process>',
      `<semantic:subProcess id="S">${'<semantic:subProcess>'.repeat(3_000)}${'</semantic:subProcess>'.repeat(3_000)}</semantic:subProcess></semantic:process>`,
    );
    expect(deep).not.toBe(template);
    const definitions = await expectOpenable(await writeBpmn(deep, PROCESS, state.tasks, state.edges));
    expect(processesOf(definitions).map((p) => p.id)).toEqual([`Process_${PROCESS.nodeId}`]);
    expect(topLevelTasks(definitions)).toHaveLength(2);
  });
});
