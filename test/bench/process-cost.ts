/**
 * What a process diagram costs to write: 100 tasks with 99 edges in one add-nodes call, against the same
 * 100 tasks created one by one (POST /items) and their 99 edges added one by one; and a 500-task BPMN
 * import against adding the same 500 tasks and edges in one add-nodes call. Time is the ratio of the two
 * measured alternately in the same run; capacity is read from each request's log line.
 */
import { writeBpmn } from '#shared/bpmn/write-bpmn.ts';
import type { BenchStack } from './bench-stack.ts';

export interface WriteCost {
  label: string;
  requests: number;
  readCapacityUnits: number;
  writeCapacityUnits: number;
  medianMs: number;
}

export interface ProcessCost {
  oneCall: WriteCost;
  oneByOne: WriteCost;
  bpmnImport: WriteCost;
  addNodes500: WriteCost;
  /** one by one / one call, time and WCU */
  oneByOneTimeRatio: number;
  oneByOneWcuRatio: number;
  /** BPMN import / add-nodes of the same 500 tasks */
  importTimeRatio: number;
}

const ROUNDS = 3;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

const taskNodes = (count: number) =>
  Array.from({ length: count }, (_, i) => ({
    '@type': 'TaskNode',
    nodeType: 'TASK',
    name: `Step ${i + 1}`,
    sequenceNumber: i + 1,
    topLeftX: 100 + (i % 20) * 150,
    topLeftY: 100 + Math.floor(i / 20) * 150,
    width: 100,
    height: 80,
    editId: `step-${i}`,
    ...(i + 1 < count
      ? {
          edges: [
            {
              sourceNodeId: `step-${i}`,
              sourcePortPoint: { x: 200 + (i % 20) * 150, y: 140 + Math.floor(i / 20) * 150 },
              targetNodeId: `step-${i + 1}`,
              targetPortPoint: { x: 100 + ((i + 1) % 20) * 150, y: 140 + Math.floor((i + 1) / 20) * 150 },
            },
          ],
        }
      : {}),
  }));

export async function measureProcessCost(bench: BenchStack): Promise<ProcessCost> {
  const { api, token, lastLine } = bench;
  const environments = await api.call('GET', '/api/v1/list?nodeType=ENVIRONMENT', { token });
  const environmentId = environments.body.results[0].nodeId;
  const processFolder = await api.call('POST', '/api/v1/items', {
    token,
    body: {
      parent: { nodeId: environmentId },
      '@type': 'NodeElement',
      nodeType: 'PROCESS_SET',
      name: 'Bench',
    },
  });
  const newProcess = async (name: string) =>
    (
      await api.call('POST', '/api/v1/items', {
        token,
        body: {
          parent: { nodeId: processFolder.body.nodeId },
          '@type': 'Process',
          nodeType: 'PROCESS',
          name,
        },
      })
    ).body.nodeId as string;

  /** Runs `requests`, summing their capacity and timing the whole. */
  // Each request the generator yields has been answered (an async generator awaits what it yields).
  const measure = async (run: (processId: string) => AsyncGenerator<{ status: number; text: string }>) => {
    const processId = await newProcess('Measured');
    const cost = { requests: 0, readCapacityUnits: 0, writeCapacityUnits: 0 };
    const started = performance.now();
    for await (const answer of run(processId)) {
      if (answer.status >= 300) throw new Error(`bench request failed: ${answer.status} ${answer.text}`);
      cost.requests++;
      cost.readCapacityUnits += lastLine().consumedRCU;
      cost.writeCapacityUnits += lastLine().consumedWCU;
    }
    return { ...cost, ms: performance.now() - started };
  };

  const oneCall = async function* (processId: string) {
    yield api.call('POST', `/api/v1/process/nodes?process=${processId}`, { token, body: taskNodes(100) });
  };
  const oneByOne = async function* (processId: string) {
    const ids: string[] = [];
    for (const task of taskNodes(100)) {
      const { edges: _edges, editId: _editId, ...fields } = task;
      const created = await api.call('POST', '/api/v1/items', {
        token,
        body: { ...fields, parent: { nodeId: processId } },
      });
      yield created;
      ids.push(created.body.nodeId);
    }
    for (let i = 0; i + 1 < ids.length; i++) {
      const port = { x: 0, y: 0 };
      yield api.call('POST', `/api/v1/process/processes/${processId}/edges`, {
        token,
        body: [
          { sourceNodeId: ids[i], sourcePortPoint: port, targetNodeId: ids[i + 1], targetPortPoint: port },
        ],
      });
    }
  };
  const bpmn500 = await bpmnOf(500);
  const importBpmn = async function* (processId: string) {
    yield api.call('POST', `/api/v1/process/processes/${processId}/bpmn`, {
      token,
      rawBody: bpmn500,
      headers: { 'content-type': 'application/xml' },
    });
  };
  const addNodes500 = async function* (processId: string) {
    yield api.call('POST', `/api/v1/process/nodes?process=${processId}`, { token, body: taskNodes(500) });
  };

  const runs = {
    oneCall: [] as number[],
    oneByOne: [] as number[],
    importBpmn: [] as number[],
    add500: [] as number[],
  };
  let last: Record<keyof typeof runs, Awaited<ReturnType<typeof measure>>> | undefined;
  for (let round = 0; round < ROUNDS; round++) {
    const figures = {
      oneCall: await measure(oneCall),
      oneByOne: await measure(oneByOne),
      importBpmn: await measure(importBpmn),
      add500: await measure(addNodes500),
    };
    for (const key of Object.keys(runs) as (keyof typeof runs)[]) runs[key].push(figures[key].ms);
    last = figures;
  }
  if (!last) throw new Error('no rounds measured');
  const cost = (label: string, key: keyof typeof runs): WriteCost => ({
    label,
    requests: last[key].requests,
    readCapacityUnits: Math.round(last[key].readCapacityUnits * 10) / 10,
    writeCapacityUnits: Math.round(last[key].writeCapacityUnits * 10) / 10,
    medianMs: Math.round(median(runs[key])),
  });
  const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;
  return {
    oneCall: cost('100 tasks + 99 edges, one add-nodes call', 'oneCall'),
    oneByOne: cost('the same, one request per task and per edge', 'oneByOne'),
    bpmnImport: cost('BPMN import, 500 tasks + 499 flows', 'importBpmn'),
    addNodes500: cost('add-nodes, the same 500 tasks + 499 edges', 'add500'),
    oneByOneTimeRatio: ratio(median(runs.oneByOne), median(runs.oneCall)),
    oneByOneWcuRatio: ratio(last.oneByOne.writeCapacityUnits, last.oneCall.writeCapacityUnits),
    importTimeRatio: ratio(median(runs.importBpmn), median(runs.add500)),
  };
}

/** A BPMN file of a chain of `count` tasks, as the export writes one. */
async function bpmnOf(count: number): Promise<string> {
  const tasks = taskNodes(count).map((task, i) => ({
    nodeId: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    name: task.name,
    sequenceNumber: task.sequenceNumber,
    topLeftX: task.topLeftX,
    topLeftY: task.topLeftY,
    width: task.width,
    height: task.height,
  }));
  const edges = tasks.slice(1).map((task, i) => ({
    edgeId: `10000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    sourceNodeId: (tasks[i] as (typeof tasks)[number]).nodeId,
    targetNodeId: task.nodeId,
    sourcePortPoint: { x: 0, y: 0 },
    targetPortPoint: { x: 0, y: 0 },
  }));
  return writeBpmn(null, { nodeId: '20000000-0000-4000-8000-000000000000', name: 'Bench' }, tasks, edges);
}
