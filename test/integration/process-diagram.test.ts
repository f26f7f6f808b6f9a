/**
 * A process's diagram (spec §2.3, §4.3): tasks added with their edges, all or nothing; the diagram read back;
 * tasks as nodes through /items; edges added and removed; the tasks and edges a process holds at most, and its
 * answers at those limits; batches too large for one transaction never seen half-done; two clients adding
 * tasks at once lose nothing.
 */
import { paginateScan } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { chain, createNode, createOfType, taskNodes } from './helpers/library.ts';
import { createUser, grant, PASSWORD } from './helpers/personas.ts';
import { type ApiClient, type TestStack, tableClient, withAdminSession } from './helpers/test-stack.ts';

let ctx: TestStack;
let api: ApiClient;
let token: string;
let environmentId: string;

withAdminSession((session) => {
  ({ ctx, api, token, environmentId } = session);
});

/** Every item of the table (a scan answers at most 1 MB a page, and the table holds the change feed too). */
async function scanAll(entity?: string): Promise<Record<string, unknown>[]> {
  const { client, TableName } = tableClient(ctx.stack);
  const filter = entity
    ? { FilterExpression: 'entity = :entity', ExpressionAttributeValues: { ':entity': entity } }
    : {};
  const items: Record<string, unknown>[] = [];
  for await (const page of paginateScan({ client }, { TableName, ...filter }))
    items.push(...(page.Items ?? []));
  return items;
}

const newProcess = async (name = 'Order to cash') => createOfType(api, token, environmentId, 'PROCESS', name);

const addNodes = (processId: string, body: unknown, as = token) =>
  api.call('POST', `/api/v1/process/nodes?process=${processId}&draft=true`, { token: as, body });
const diagram = async (processId: string) =>
  (await api.call('GET', `/api/v1/process/processes/${processId}`, { token })).body;

describe('adding task nodes (spec §4.3)', () => {
  it('answers the tasks in request order, placed, and moves the process to its next version', async () => {
    const process = await newProcess();
    const added = await addNodes(
      process.nodeId,
      taskNodes([
        { editId: 'e-check', name: 'Check order', edges: [{ to: 'e-ship' }] },
        { editId: 'e-ship', name: 'Ship', edges: [{ to: 'e-bill' }] },
        { editId: 'e-bill', name: 'Bill' },
      ]),
    );
    expect(added.status).toBe(200);
    expect(added.body.map((n: { editId: string }) => n.editId)).toEqual(['e-check', 'e-ship', 'e-bill']);
    for (const node of added.body) {
      expect(node).toMatchObject({
        '@type': 'BaseElement',
        nodeType: 'TASK',
        nodeStatus: 'IN_PROGRESS',
        version: '0.0002',
        deleted: false,
      });
      expect(node.nodeId).toMatch(/^[0-9A-F-]{36}$/);
    }
    const [check, ship, bill] = added.body.map((n: { nodeId: string }) => n.nodeId);

    const read = await diagram(process.nodeId);
    expect(read.version).toBe('0.0002');
    expect(read.nodeVersionId).not.toBe(process.nodeVersionId);
    expect(read.tasks.map((t: { nodeId: string }) => t.nodeId)).toEqual([check, ship, bill]);
    expect(read.tasks[1]).toMatchObject({
      name: 'Ship',
      sequenceNumber: 2,
      topLeftX: 250,
      topLeftY: 80,
      width: 100,
      height: 80,
    });
    expect(read.edges).toHaveLength(2);
    expect(read.edges[0]).toMatchObject({
      sourceNodeId: check,
      targetNodeId: ship,
      sourcePortPoint: { x: 200, y: 120 },
      targetPortPoint: { x: 250, y: 120 },
    });

    // A later call connects new tasks to those already in the process, by nodeId.
    const more = await addNodes(
      process.nodeId,
      taskNodes([{ editId: 'e-archive', sequenceNumber: 4, edges: [{ from: bill, to: 'e-archive' }] }]),
    );
    expect(more.status).toBe(200);
    const after = await diagram(process.nodeId);
    expect(after.version).toBe('0.0003');
    expect(after.edges.map((e: { sourceNodeId: string }) => e.sourceNodeId)).toContain(bill);
  });

  it('tasks order by sequenceNumber, whatever the request order', async () => {
    const process = await newProcess('Sequenced');
    await addNodes(
      process.nodeId,
      taskNodes([
        { editId: 'b', name: 'Second', sequenceNumber: 20 },
        { editId: 'a', name: 'First', sequenceNumber: 10 },
      ]),
    );
    expect((await diagram(process.nodeId)).tasks.map((t: { name: string }) => t.name)).toEqual([
      'First',
      'Second',
    ]);
  });
});

describe('all or nothing', () => {
  it('refuses bad tasks and edges with a 400 naming each field, and creates nothing', async () => {
    const process = await newProcess('Guarded');
    const other = await newProcess('Elsewhere');
    const [foreignTask] = (await addNodes(other.nodeId, taskNodes([{ editId: 'x' }]))).body;
    const cases: [unknown, string, string][] = [
      [taskNodes([{ editId: 'a' }, { editId: 'a' }]), '$[1].editId', 'unique'],
      [
        taskNodes([{ editId: 'a', edges: [{ to: 'nope' }] }]),
        '$[0].edges[0].targetNodeId',
        'task_of_process',
      ],
      [
        taskNodes([{ editId: 'a', edges: [{ to: foreignTask.nodeId }] }]),
        '$[0].edges[0].targetNodeId',
        'task_of_process',
      ],
      [[{ ...taskNodes([{ editId: 'a' }])[0], topLeftX: 10.5 }], '$[0].topLeftX', 'invalid_type'],
      [[{ ...taskNodes([{ editId: 'a' }])[0], width: 0 }], '$[0].width', 'too_small'],
      [[{ ...taskNodes([{ editId: 'a' }])[0], sequenceNumber: '1' }], '$[0].sequenceNumber', 'invalid_type'],
      [[], '$', 'too_small'],
      // 2,000 edges per call in all, though no one task has more.
      [
        taskNodes([
          { editId: 'a', edges: Array.from({ length: 1001 }, () => ({ to: 'b' })) },
          { editId: 'b', edges: Array.from({ length: 1000 }, () => ({ to: 'a' })) },
        ]),
        '$[1].edges',
        'max_edges_per_call',
      ],
    ];
    for (const [body, path, rule] of cases) {
      const refused = await addNodes(process.nodeId, body);
      expect(refused.status, JSON.stringify(body).slice(0, 120)).toBe(400);
      expect(refused.headers.get('content-type')).toContain('application/problem+json');
      expect(refused.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ path, rule })]));
    }
    const unchanged = await diagram(process.nodeId);
    expect(unchanged.version).toBe(process.version);
    expect(unchanged.tasks).toEqual([]);
  });

  it('the target must be a process the caller can see (404) and edit (403)', async () => {
    const process = await newProcess('Private');
    const folder = await createOfType(api, token, environmentId, 'PROCESS_SET', 'Not a process');
    const notProcess = await addNodes(folder.nodeId, taskNodes([{ editId: 'a' }]));
    expect(notProcess.status).toBe(400);
    expect(notProcess.body.errors[0]).toMatchObject({ in: 'query', path: '$.process' });
    expect(
      (await addNodes('0F8FAD5B-D9CB-469F-A165-70867728950E', taskNodes([{ editId: 'a' }]))).status,
    ).toBe(404);

    const readerId = await createUser(api, token, 'diagram-reader');
    await grant(api, token, environmentId, readerId, 'READER');
    const reader = await api.login('diagram-reader', PASSWORD);
    const forbidden = await addNodes(process.nodeId, taskNodes([{ editId: 'a' }]), reader);
    expect(forbidden.status).toBe(403);
    const outsiderId = await createUser(api, token, 'diagram-outsider');
    expect(outsiderId).toBeTruthy();
    const outsider = await api.login('diagram-outsider', PASSWORD);
    expect((await addNodes(process.nodeId, taskNodes([{ editId: 'a' }]), outsider)).status).toBe(404);
    expect((await diagram(process.nodeId)).tasks).toEqual([]);
  });
});

describe('tasks are nodes', () => {
  it('moving or resizing a task carries the ends of its edges along; restoring its old version too', async () => {
    const process = await newProcess('Edges follow');
    const [a, b] = (await addNodes(process.nodeId, chain(2))).body;
    const edgeEnds = async () => {
      const [edge] = (await diagram(process.nodeId)).edges;
      return [edge.sourcePortPoint, edge.targetPortPoint];
    };
    // The chain's edge leaves a (100,80 100×80) at its right middle and enters b (250,80) at its left middle.
    expect(await edgeEnds()).toEqual([
      { x: 200, y: 120 },
      { x: 250, y: 120 },
    ]);
    const put = async (taskId: string, change: Record<string, number>) => {
      const read = await api.call('GET', `/api/v1/items/${taskId}?detail=true`, { token });
      const written = await api.call('PUT', `/api/v1/items/${taskId}`, {
        token,
        body: { ...read.body, '@type': 'TaskNode', ...change },
      });
      expect(written.status, written.text).toBe(200);
      return read.body.nodeVersionId as string;
    };
    const before = await put(a.nodeId, { topLeftX: 160, topLeftY: 100 });
    expect(await edgeEnds()).toEqual([
      { x: 260, y: 140 },
      { x: 250, y: 120 },
    ]);
    // Resized: the end keeps its share of the outline (left edge, half way down).
    await put(b.nodeId, { topLeftX: 300, width: 200, height: 40 });
    expect(await edgeEnds()).toEqual([
      { x: 260, y: 140 },
      { x: 300, y: 100 },
    ]);
    // A rename leaves the ends where they are.
    await put(a.nodeId, { sequenceNumber: 5 });
    const current = (await api.call('GET', `/api/v1/items/${a.nodeId}`, { token })).body;
    const restored = await api.call('POST', `/api/v1/items/${a.nodeId}/versions/${before}/restore`, {
      token,
      body: { nodeVersionId: current.nodeVersionId },
    });
    expect(restored.status, restored.text).toBe(200);
    expect(await edgeEnds()).toEqual([
      { x: 200, y: 120 },
      { x: 300, y: 100 },
    ]);
    // The export draws the flow between the shapes where they are.
    const exported = await api.call('GET', `/api/v1/process/processes/${process.nodeId}/bpmn`, { token });
    expect(exported.text).toMatch(/<di:waypoint x="200" y="120" \/>\s*<di:waypoint x="300" y="100" \/>/);
  });

  it('a task restored from the trash finds its edges ending where the tasks that stayed have moved since', async () => {
    const process = await newProcess('Edges wait in the trash');
    const [a, b] = (await addNodes(process.nodeId, chain(3))).body;
    const moveA = async (change: Record<string, number>) => {
      const read = await api.call('GET', `/api/v1/items/${a.nodeId}?detail=true`, { token });
      const written = await api.call('PUT', `/api/v1/items/${a.nodeId}`, {
        token,
        body: { ...read.body, '@type': 'TaskNode', ...change },
      });
      expect(written.status, written.text).toBe(200);
    };
    const deleted = await api.call('DELETE', `/api/v1/items/${b.nodeId}`, { token, body: {} });
    expect(deleted.status).toBe(200);
    // a (100,80 100×80) moves twice and doubles its width; c stays where it was.
    await moveA({ topLeftX: 1000 });
    await moveA({ topLeftX: 3000, topLeftY: 500, width: 200 });
    const restored = await api.call('POST', `/api/v1/items/${b.nodeId}/restore`, { token });
    expect(restored.status, restored.text).toBe(200);
    const ends = Object.fromEntries(
      (await diagram(process.nodeId)).edges.map(
        (edge: { sourceNodeId: string; sourcePortPoint: unknown; targetPortPoint: unknown }) => [
          edge.sourceNodeId,
          [edge.sourcePortPoint, edge.targetPortPoint],
        ],
      ),
    );
    // a→b leaves a at its right middle, wherever a is now; b→c is as it was.
    expect(ends[a.nodeId]).toEqual([
      { x: 3200, y: 540 },
      { x: 250, y: 120 },
    ]);
    expect(ends[b.nodeId]).toEqual([
      { x: 350, y: 120 },
      { x: 400, y: 120 },
    ]);
  });

  it('an edge to a task deleted on its own waits in that task’s trash, and comes back with it where it is', async () => {
    const process = await newProcess('Edges wait for both ends');
    const [a, b] = (await addNodes(process.nodeId, chain(2))).body;
    const remove = (taskId: string) => api.call('DELETE', `/api/v1/items/${taskId}`, { token, body: {} });
    const restore = (taskId: string) => api.call('POST', `/api/v1/items/${taskId}/restore`, { token });
    const liveEdges = async () =>
      (await scanAll('Edge')).filter(
        (item) => item.PK === `NODE#${process.nodeId}` && item.entity === 'Edge',
      );
    expect((await remove(b.nodeId)).status).toBe(200);
    // a (100,80 100×80) moves while the edge is in b's trash, then goes to the trash itself.
    const read = await api.call('GET', `/api/v1/items/${a.nodeId}?detail=true`, { token });
    const moved = await api.call('PUT', `/api/v1/items/${a.nodeId}`, {
      token,
      body: { ...read.body, '@type': 'TaskNode', topLeftX: 1000, topLeftY: 500 },
    });
    expect(moved.status, moved.text).toBe(200);
    expect((await remove(a.nodeId)).status).toBe(200);
    // b comes back first: the edge has one end in the trash, so it is not live (nor counted, nor in the feed).
    expect((await restore(b.nodeId)).status).toBe(200);
    expect(await liveEdges()).toEqual([]);
    expect((await restore(a.nodeId)).status).toBe(200);
    expect((await diagram(process.nodeId)).edges).toEqual([
      expect.objectContaining({
        sourceNodeId: a.nodeId,
        sourcePortPoint: { x: 1100, y: 540 },
        targetNodeId: b.nodeId,
        targetPortPoint: { x: 250, y: 120 },
      }),
    ]);

    // Purged with the task it waits for, it is gone for good.
    expect((await remove(b.nodeId)).status).toBe(200);
    expect((await remove(a.nodeId)).status).toBe(200);
    expect((await restore(b.nodeId)).status).toBe(200);
    expect((await api.call('DELETE', `/api/v1/trash/${a.nodeId}`, { token })).status).toBe(204);
    expect(await liveEdges()).toEqual([]);
    expect((await scanAll('TrashedEdge')).filter((item) => item.PK === `NODE#${process.nodeId}`)).toEqual([]);
  });

  it('are retrieved, updated and deleted through /items; deleting one removes its edges', async () => {
    const process = await newProcess('Editable');
    const [first, second, third] = (await addNodes(process.nodeId, chain(3))).body;
    const retrieved = await api.call('GET', `/api/v1/items/${second.nodeId}?detail=true`, { token });
    expect(retrieved.body).toMatchObject({ nodeType: 'TASK', sequenceNumber: 2, width: 100 });
    const updated = await api.call('PUT', `/api/v1/items/${second.nodeId}`, {
      token,
      body: { ...retrieved.body, '@type': 'TaskNode', name: 'Renamed', topLeftX: 999, sequenceNumber: 7 },
    });
    expect(updated.status).toBe(200);
    const moved = (await diagram(process.nodeId)).tasks.find(
      (t: { nodeId: string }) => t.nodeId === second.nodeId,
    );
    expect(moved).toMatchObject({ name: 'Renamed', topLeftX: 999, sequenceNumber: 7 });
    const badGeometry = await api.call('PUT', `/api/v1/items/${second.nodeId}`, {
      token,
      body: {
        ...retrieved.body,
        nodeVersionId: updated.body.nodeVersionId,
        '@type': 'TaskNode',
        height: 1.5,
      },
    });
    expect(badGeometry.status).toBe(400);

    const children = await api.call('GET', `/api/v1/list/${process.nodeId}`, { token });
    expect(children.body.totalRecords).toBe(3);

    const deleted = await api.call('DELETE', `/api/v1/items/${second.nodeId}`, { token });
    expect(deleted.status).toBe(200);
    const after = await diagram(process.nodeId);
    expect(after.tasks.map((t: { nodeId: string }) => t.nodeId)).toEqual([first.nodeId, third.nodeId]);
    expect(after.edges).toEqual([]);
    expect((await api.call('GET', `/api/v1/list/${process.nodeId}`, { token })).body.totalRecords).toBe(2);
    expect((await scanAll('Edge')).filter((e) => e.PK === `NODE#${process.nodeId}`)).toEqual([]);
    // They wait in the trash with the task, to come back if it is restored.
    expect((await scanAll('TrashedEdge')).filter((e) => e.PK === `NODE#${process.nodeId}`)).toHaveLength(2);
    expect((await api.call('POST', `/api/v1/items/${second.nodeId}/restore`, { token })).status).toBe(200);
    expect((await diagram(process.nodeId)).edges).toHaveLength(2);
  });

  it('a task created, deleted or restored on its own moves the process to its next version, as the diagram routes do', async () => {
    const process = await newProcess('Versioned by its tasks');
    const published = await api.call('POST', `/api/v1/items/${process.nodeId}/publish`, {
      token,
      body: { nodeVersionId: process.nodeVersionId },
    });
    expect(published.status, published.text).toBe(200);
    const before = await diagram(process.nodeId);
    expect(before).toMatchObject({ version: '1.0000', nodeStatus: 'PUBLISHED' });

    const task = await api.call('POST', '/api/v1/items', {
      token,
      body: { parent: { nodeId: process.nodeId }, '@type': 'TaskNode', nodeType: 'TASK', name: 'Added here' },
    });
    expect(task.status, task.text).toBe(200);
    const added = await diagram(process.nodeId);
    expect(added).toMatchObject({ version: '1.0001', nodeStatus: 'IN_PROGRESS' });
    expect(added.nodeVersionId).not.toBe(before.nodeVersionId);
    expect(added.tasks.map((t: { nodeId: string }) => t.nodeId)).toEqual([task.body.nodeId]);

    const deleted = await api.call('DELETE', `/api/v1/items/${task.body.nodeId}`, { token });
    expect(deleted.status, deleted.text).toBe(200);
    const removed = await diagram(process.nodeId);
    expect(removed).toMatchObject({ version: '1.0002', nodeStatus: 'IN_PROGRESS', tasks: [] });
    const restored = await api.call('POST', `/api/v1/items/${task.body.nodeId}/restore`, { token });
    expect(restored.status, restored.text).toBe(200);
    const back = await diagram(process.nodeId);
    expect(back).toMatchObject({ version: '1.0003' });
    expect(back.tasks.map((t: { nodeId: string }) => t.nodeId)).toEqual([task.body.nodeId]);
    // The diagram's own route moves it the same way.
    expect((await addNodes(process.nodeId, chain(1))).status).toBe(200);
    expect(await diagram(process.nodeId)).toMatchObject({ version: '1.0004' });
  });

  it('tasks deleted and restored on their own, many at once, each move the process once', async () => {
    const process = await newProcess('Busy diagram');
    const tasks = (await addNodes(process.nodeId, chain(8))).body as { nodeId: string }[];
    const start = (await diagram(process.nodeId)).version as string;
    const minor = (version: string) => Number(version.split('.')[1]);
    const all = (method: string, path: (id: string) => string) =>
      Promise.all(tasks.map((task) => api.call(method, path(task.nodeId), { token })));
    const deletes = await all('DELETE', (id) => `/api/v1/items/${id}`);
    expect(deletes.map((answer) => answer.status)).toEqual(tasks.map(() => 200));
    expect(minor((await diagram(process.nodeId)).version) - minor(start)).toBe(8);
    const restores = await all('POST', (id) => `/api/v1/items/${id}/restore`);
    expect(restores.map((answer) => `${answer.status} ${answer.status === 200 ? '' : answer.text}`)).toEqual(
      tasks.map(() => '200 '),
    );
    const after = await diagram(process.nodeId);
    expect(minor(after.version) - minor(start)).toBe(16);
    expect(after.tasks).toHaveLength(8);
  });

  it('deleting the process deletes its tasks', async () => {
    const process = await newProcess('Doomed');
    const tasks = (await addNodes(process.nodeId, chain(3))).body;
    const deleted = await api.call('DELETE', `/api/v1/items/${process.nodeId}`, { token });
    expect(deleted.body.map((n: { nodeId: string }) => n.nodeId)).toEqual(
      expect.arrayContaining([process.nodeId, ...tasks.map((t: { nodeId: string }) => t.nodeId)]),
    );
    for (const task of tasks) {
      expect((await api.call('GET', `/api/v1/items/${task.nodeId}`, { token })).status).toBe(404);
    }
  });
});

describe('edges', () => {
  it('are added and removed later, each change a new process version', async () => {
    const process = await newProcess('Rewired');
    const [a, b, c] = (await addNodes(process.nodeId, chain(3))).body;
    const port = { x: 1, y: 2 };
    const added = await api.call('POST', `/api/v1/process/processes/${process.nodeId}/edges`, {
      token,
      body: [
        { sourceNodeId: a.nodeId, sourcePortPoint: port, targetNodeId: c.nodeId, targetPortPoint: port },
      ],
    });
    expect(added.status).toBe(200);
    expect(added.body[0]).toMatchObject({ sourceNodeId: a.nodeId, targetNodeId: c.nodeId });
    expect((await diagram(process.nodeId)).version).toBe('0.0003');
    expect((await diagram(process.nodeId)).edges).toHaveLength(3);

    const removed = await api.call(
      'DELETE',
      `/api/v1/process/processes/${process.nodeId}/edges/${added.body[0].edgeId}`,
      { token },
    );
    expect(removed.status).toBe(204);
    const after = await diagram(process.nodeId);
    expect(after.version).toBe('0.0004');
    expect(after.edges.map((e: { edgeId: string }) => e.edgeId)).not.toContain(added.body[0].edgeId);
    expect(
      (
        await api.call(
          'DELETE',
          `/api/v1/process/processes/${process.nodeId}/edges/${added.body[0].edgeId}`,
          { token },
        )
      ).status,
    ).toBe(404);

    const other = await newProcess('Other');
    const [foreign] = (await addNodes(other.nodeId, chain(1, 'f'))).body;
    const refused = await api.call('POST', `/api/v1/process/processes/${process.nodeId}/edges`, {
      token,
      body: [
        {
          sourceNodeId: b.nodeId,
          sourcePortPoint: port,
          targetNodeId: foreign.nodeId,
          targetPortPoint: port,
        },
      ],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([expect.objectContaining({ path: '$[0].targetNodeId' })]);
    expect((await diagram(process.nodeId)).version).toBe('0.0004');
  });
});

/** Every item a batch wrote that still carries its batch id, with the batch records. */
async function batchLeftovers(processId: string) {
  const items = await scanAll();
  return items.filter(
    (item) =>
      (item.batchId && (item.parentId === processId || item.PK === `NODE#${processId}`)) ||
      (item.entity === 'DiagramBatch' && item.PK === `NODE#${processId}`),
  );
}

describe('more tasks than one transaction holds', () => {
  it('adds 500 tasks with 499 edges in one call', async () => {
    const process = await newProcess('Large');
    const added = await addNodes(process.nodeId, chain(500));
    expect(added.status).toBe(200);
    expect(added.body).toHaveLength(500);
    const read = await diagram(process.nodeId);
    expect(read.tasks).toHaveLength(500);
    expect(read.edges).toHaveLength(499);
    expect(read.version).toBe('0.0002');
    expect(
      (await api.call('GET', `/api/v1/list/${process.nodeId}?pageSize=1`, { token })).body.totalRecords,
    ).toBe(500);
    expect((await api.call('GET', `/api/v1/items/${added.body[250].nodeId}`, { token })).status).toBe(200);
  });

  it('a process holds at most 1,500 tasks, however they are added', async () => {
    const process = await newProcess('Full');
    const tasks = (count: number, prefix: string) =>
      Array.from({ length: count }, (_, i) => ({ editId: `${prefix}${i}` }));
    expect((await addNodes(process.nodeId, taskNodes(tasks(1000, 'x')))).status).toBe(200);
    const over = await addNodes(process.nodeId, taskNodes(tasks(501, 'y')));
    expect([over.status, over.body.code]).toEqual([409, 'TOO_MANY_TASKS']);
    expect((await addNodes(process.nodeId, taskNodes(tasks(500, 'y')))).status).toBe(200);
    const oneMore = await createNode(api, token, {
      '@type': 'TaskNode',
      nodeType: 'TASK',
      name: 'One too many',
      parent: { nodeId: process.nodeId },
    }).catch((error: Error) => error.message);
    expect(oneMore).toMatch(/409.*TOO_MANY_TASKS/);
    const read = await diagram(process.nodeId);
    expect(read.tasks).toHaveLength(1500);
    // Still one answer, and still published whole.
    const published = await api.call('POST', `/api/v1/items/${process.nodeId}/publish`, {
      token,
      body: { nodeVersionId: read.nodeVersionId },
    });
    expect(published.status, published.text.slice(0, 300)).toBe(200);
  });

  it('a process holds at most 3,000 edges, however they are added; one more changes nothing', async () => {
    const process = await newProcess('Many edges');
    const port = { x: 0, y: 0 };
    /** A task with `count` edges from itself to itself (as in a diagram drawn over many calls). */
    const selfLooped = (editId: string, count: number) =>
      taskNodes([{ editId }]).map((task) => ({
        ...task,
        edges: Array.from({ length: count }, () => ({
          sourceNodeId: editId,
          sourcePortPoint: port,
          targetNodeId: editId,
          targetPortPoint: port,
        })),
      }));
    expect((await addNodes(process.nodeId, selfLooped('a', 2000))).status).toBe(200);
    const b = await addNodes(process.nodeId, selfLooped('b', 1000));
    expect(b.status).toBe(200);
    const full = await diagram(process.nodeId);
    expect(full.edges).toHaveLength(3000);

    const over = await addNodes(process.nodeId, selfLooped('c', 1));
    expect([over.status, over.body.code]).toEqual([409, 'TOO_MANY_EDGES']);
    const taskId = b.body[0].nodeId as string;
    const edge = { sourceNodeId: taskId, sourcePortPoint: port, targetNodeId: taskId, targetPortPoint: port };
    const edgesRoute = `/api/v1/process/processes/${process.nodeId}/edges`;
    const overByRoute = await api.call('POST', edgesRoute, { token, body: [edge] });
    expect([overByRoute.status, overByRoute.body.code]).toEqual([409, 'TOO_MANY_EDGES']);
    const after = await diagram(process.nodeId);
    expect([after.tasks.length, after.edges.length, after.nodeVersionId]).toEqual([
      2,
      3000,
      full.nodeVersionId,
    ]);

    // Room again once an edge is removed: the limit is the process's, not a count of calls.
    const removed = await api.call('DELETE', `${edgesRoute}/${full.edges[0].edgeId}`, { token });
    expect(removed.status).toBe(204);
    expect((await api.call('POST', edgesRoute, { token, body: [edge] })).status).toBe(200);
    expect((await diagram(process.nodeId)).edges).toHaveLength(3000);
  });

  it('at 1,500 tasks and 3,000 edges, with the longest names, the diagram and its export fit in one answer', async () => {
    // A name XML writes back six times over (`&quot;`), and JSON twice (`\"`, escaped again in the answer).
    const longest = '"'.repeat(255);
    const processes = await createOfType(api, token, environmentId, 'PROCESS_SET', 'Longest names');
    const process = await createNode(api, token, {
      '@type': 'Process',
      nodeType: 'PROCESS',
      name: longest,
      parent: { nodeId: processes.nodeId },
    });
    const far = { x: -1_000_000, y: -1_000_000 };
    /** `count` tasks at the ends of every range, each with `edgesEach` edges to the next (the last to the first). */
    const tasks = (prefix: string, count: number, edgesEach: number) =>
      Array.from({ length: count }, (_, i) => ({
        '@type': 'TaskNode',
        nodeType: 'TASK',
        name: longest,
        sequenceNumber: 1_000_000,
        topLeftX: -1_000_000,
        topLeftY: -1_000_000,
        width: 100_000,
        height: 100_000,
        editId: `${prefix}${i}`,
        edges: Array.from({ length: edgesEach }, () => ({
          sourceNodeId: `${prefix}${i}`,
          sourcePortPoint: far,
          targetNodeId: `${prefix}${(i + 1) % count}`,
          targetPortPoint: far,
        })),
      }));
    for (const prefix of ['x', 'y']) {
      const added = await addNodes(process.nodeId, tasks(prefix, 750, 2));
      expect(added.status, added.text.slice(0, 300)).toBe(200);
    }
    const answerBytes = (text: string) => Buffer.byteLength(JSON.stringify(text));
    const read = await api.call('GET', `/api/v1/process/processes/${process.nodeId}`, { token });
    expect(read.status).toBe(200);
    expect([read.body.tasks.length, read.body.edges.length]).toEqual([1500, 3000]);
    const exported = await api.call('GET', `/api/v1/process/processes/${process.nodeId}/bpmn`, { token });
    expect(exported.status, exported.text.slice(0, 300)).toBe(200);
    // Indented, and with room (about 1.2 MB) for the 2,000 edges a call racing another can add past the limit.
    expect(exported.text).toMatch(/\n {2}/);
    expect(answerBytes(exported.text)).toBeLessThan(5_000_000);
    expect(answerBytes(read.text)).toBeLessThan(answerBytes(exported.text));
  });

  it('a batch that fails midway shows nothing, and leaves nothing behind', async () => {
    const process = await newProcess('Interrupted');
    // One staging commit (the one writing task t150) meets throttling on each of the SDK's three attempts,
    // while the others go through: the request fails with a 503.
    ctx.stack.dynamoDb.injectFault('TransactWriteItems', 'throttle', 3, (request) =>
      request.includes('"Task t150"'),
    );
    const answer = await addNodes(process.nodeId, chain(300));
    expect(answer.status).toBe(503);
    const read = await diagram(process.nodeId);
    expect(read.tasks).toEqual([]);
    expect(read.edges).toEqual([]);
    expect(read.version).toBe(process.version);
    expect((await api.call('GET', `/api/v1/list/${process.nodeId}`, { token })).body.results).toEqual([]);
    expect((await api.call('GET', `/api/v1/list/${process.nodeId}`, { token })).body.totalRecords).toBe(0);
    // The request removed what it had staged before answering.
    expect(await batchLeftovers(process.nodeId)).toEqual([]);
  });

  it('what a request that ended midway left behind is invisible, and swept by the next change', async () => {
    const process = await newProcess('Abandoned');
    // What a function that died after staging leaves: an open batch, a staged task and its link, an edge.
    const batchId = '11111111-2222-4333-8444-555555555555';
    const taskId = 'AAAAAAAA-BBBB-4CCC-8DDD-EEEEEEEEEEEE';
    const startedAt = new Date(Date.now() - 120_000).toISOString();
    await ctx.stack.run(async () => {
      const { commitNodeWrites } = await import('#shared/data/node-write-path.ts');
      const { newNode } = await import('#shared/domain/node.ts');
      const staged = {
        ...newNode(
          { principalId: 'P', name: 'P' },
          {
            nodeId: taskId,
            nodeType: 'TASK',
            name: 'Ghost',
            parentId: process.nodeId,
            environmentId,
            ancestorIds: [...(await diagramAncestors(process.nodeId)), process.nodeId],
          },
          startedAt,
        ),
        batchId,
      };
      await commitNodeWrites([{ kind: 'openBatch', processId: process.nodeId, batchId, at: startedAt }]);
      await commitNodeWrites([
        { kind: 'stage', node: staged },
        {
          kind: 'putEdge',
          processId: process.nodeId,
          edge: {
            edgeId: 'EDGE0000-0000-4000-8000-000000000000',
            sourceNodeId: taskId,
            targetNodeId: taskId,
            sourcePortPoint: { x: 0, y: 0 },
            targetPortPoint: { x: 0, y: 0 },
            bpmnElementId: null,
            batchId,
          },
          stamp: { by: 'P', at: startedAt },
        },
      ]);
    });
    expect((await api.call('GET', `/api/v1/items/${taskId}`, { token })).status).toBe(404);
    expect((await diagram(process.nodeId)).tasks).toEqual([]);
    expect((await diagram(process.nodeId)).edges).toEqual([]);
    expect((await api.call('GET', `/api/v1/list/${process.nodeId}`, { token })).body.results).toEqual([]);
    expect(await batchLeftovers(process.nodeId)).not.toEqual([]);

    // The next large change to the process sweeps it away; its own batch stays, committed.
    expect((await addNodes(process.nodeId, chain(120))).status).toBe(200);
    const left = await batchLeftovers(process.nodeId);
    expect(left.filter((item) => item.batchId === batchId)).toEqual([]);
    expect(left.filter((item) => item.entity === 'DiagramBatch')).toEqual([
      expect.objectContaining({ state: 'committed' }),
    ]);
    expect((await diagram(process.nodeId)).tasks).toHaveLength(120);
  });
});

async function diagramAncestors(processId: string): Promise<string[]> {
  const items = await scanAll();
  const node = items.find((item) => item.PK === `NODE#${processId}` && item.SK === 'DRAFT');
  return node?.ancestorIds as string[];
}

describe('two clients at once', () => {
  it('adding tasks to one process at the same time loses nothing', async () => {
    const process = await newProcess('Busy');
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => addNodes(process.nodeId, chain(3, `c${i}-`))),
    );
    expect(results.map((r) => r.status)).toEqual(results.map(() => 200));
    const read = await diagram(process.nodeId);
    expect(read.tasks).toHaveLength(36);
    expect(read.edges).toHaveLength(24);
    expect(read.version).toBe('0.0013');
    expect(
      (await api.call('GET', `/api/v1/list/${process.nodeId}?pageSize=1`, { token })).body.totalRecords,
    ).toBe(36);
  });
});
