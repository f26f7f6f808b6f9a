/**
 * BPMN 2.0 in and out through the API: an export bpmn-moddle reads back as the diagram; export → import
 * into a new process → export keeps tasks, flows and geometry; every MIWG reference model imports without a
 * 5xx and comes back with its tasks, flows and shapes; bad files are a 4xx that writes nothing.
 */
import { BpmnModdle } from 'bpmn-moddle';
import { describe, expect, it } from 'vitest';
import { MIWG_REFERENCE, readReference, referenceFiles } from '../unit/bpmn/bpmn-test-support.ts';
import { createOfType } from './helpers/library.ts';
import { type ApiClient, withAdminSession } from './helpers/test-stack.ts';

let api: ApiClient;
let token: string;
let environmentId: string;

withAdminSession((session) => {
  ({ api, token, environmentId } = session);
});

const newProcess = async (name: string) =>
  (await createOfType(api, token, environmentId, 'PROCESS', name)).nodeId;
const exportOf = (processId: string) =>
  api.call('GET', `/api/v1/process/processes/${processId}/bpmn`, { token });
const importInto = (processId: string, xml: string | Buffer, contentType = 'application/bpmn+xml') =>
  api.call('POST', `/api/v1/process/processes/${processId}/bpmn`, {
    token,
    rawBody: xml,
    headers: { 'content-type': contentType },
  });
const diagram = async (processId: string) =>
  (await api.call('GET', `/api/v1/process/processes/${processId}`, { token })).body;

interface Drawn {
  tasks: Record<string, { name: string; bounds: string }>;
  flows: Record<string, string>;
  shapes: Record<string, string>;
}

/** What a file draws, read with bpmn-moddle directly: tasks (name, bounds), flows (ends), every shape's bounds. */
async function drawnIn(xml: string): Promise<Drawn> {
  const { rootElement } = await new BpmnModdle().fromXML(xml);
  const definitions = rootElement as any;
  const shapes: Record<string, string> = {};
  for (const diagramElement of definitions.diagrams ?? []) {
    for (const element of diagramElement.plane?.planeElement ?? []) {
      if (element.$type === 'bpmndi:BPMNShape' && element.bpmnElement) {
        const { x, y, width, height } = element.bounds;
        shapes[element.bpmnElement.id] = `${x},${y},${width},${height}`;
      }
    }
  }
  const tasks: Drawn['tasks'] = {};
  const flows: Drawn['flows'] = {};
  for (const root of definitions.rootElements ?? []) {
    if (root.$type !== 'bpmn:Process') continue;
    for (const element of root.flowElements ?? []) {
      if (/Task$/.test(element.$type)) {
        tasks[element.id] = { name: element.name ?? '', bounds: shapes[element.id] ?? 'none' };
      }
      if (element.$type === 'bpmn:SequenceFlow')
        flows[element.id] = `${element.sourceRef?.id}->${element.targetRef?.id}`;
    }
  }
  return { tasks, flows, shapes };
}

const chain = (count: number) =>
  Array.from({ length: count }, (_, i) => ({
    '@type': 'TaskNode',
    nodeType: 'TASK',
    name: `Step ${i + 1}`,
    sequenceNumber: i + 1,
    topLeftX: 100 + i * 160,
    topLeftY: 100,
    width: 100,
    height: 80,
    editId: `s${i}`,
    ...(i + 1 < count
      ? {
          edges: [
            {
              sourceNodeId: `s${i}`,
              sourcePortPoint: { x: 200 + i * 160, y: 140 },
              targetNodeId: `s${i + 1}`,
              targetPortPoint: { x: 260 + i * 160, y: 140 },
            },
          ],
        }
      : {}),
  }));

describe('export', () => {
  it('writes the tasks, edges and geometry as BPMN 2.0 with diagram interchange', async () => {
    const processId = await newProcess('Exported');
    await api.call('POST', `/api/v1/process/nodes?process=${processId}`, { token, body: chain(3) });
    const exported = await exportOf(processId);
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-type')).toContain('application/xml');
    expect(exported.headers.get('content-disposition')).toContain('Exported.bpmn');
    const drawn = await drawnIn(exported.text);
    expect(Object.values(drawn.tasks)).toEqual([
      { name: 'Step 1', bounds: '100,100,100,80' },
      { name: 'Step 2', bounds: '260,100,100,80' },
      { name: 'Step 3', bounds: '420,100,100,80' },
    ]);
    expect(Object.keys(drawn.flows)).toHaveLength(2);
    expect((await exportOf('0F8FAD5B-D9CB-469F-A165-70867728950E')).status).toBe(404);
  });

  it('draft=false exports the process as last published; one never published is a 404', async () => {
    const processId = await newProcess('Published export');
    expect(
      (await api.call('GET', `/api/v1/process/processes/${processId}/bpmn?draft=false`, { token })).status,
    ).toBe(404);
    await api.call('POST', `/api/v1/process/nodes?process=${processId}`, { token, body: chain(2) });
    const current = await diagram(processId);
    const published = await api.call('POST', `/api/v1/items/${processId}/publish`, {
      token,
      body: { nodeVersionId: current.nodeVersionId },
    });
    expect(published.status, published.text).toBe(200);
    // Changed since: a third task, an edge removed, a published task deleted.
    const third = await api.call('POST', `/api/v1/process/nodes?process=${processId}`, {
      token,
      body: [
        {
          '@type': 'TaskNode',
          nodeType: 'TASK',
          name: 'Step 3',
          sequenceNumber: 3,
          topLeftX: 420,
          topLeftY: 100,
          width: 100,
          height: 80,
          editId: 's2',
        },
      ],
    });
    expect(third.status, third.text).toBe(200);
    const [edge] = current.edges as { edgeId: string }[];
    expect(
      (await api.call('DELETE', `/api/v1/process/processes/${processId}/edges/${edge?.edgeId}`, { token }))
        .status,
    ).toBe(204);
    const step2 = (current.tasks as { nodeId: string; name: string }[]).find(
      (task) => task.name === 'Step 2',
    );
    const deleted = await api.call('DELETE', `/api/v1/items/${step2?.nodeId}`, { token, body: {} });
    expect(deleted.status, deleted.text).toBe(200);

    const asPublished = await api.call('GET', `/api/v1/process/processes/${processId}/bpmn?draft=false`, {
      token,
    });
    expect(asPublished.status, asPublished.text).toBe(200);
    const drawn = await drawnIn(asPublished.text);
    expect(Object.values(drawn.tasks).map((task) => task.name)).toEqual(['Step 1', 'Step 2']);
    expect(Object.keys(drawn.flows)).toHaveLength(1);
    const working = await drawnIn((await exportOf(processId)).text);
    expect(Object.values(working.tasks).map((task) => task.name)).toEqual(['Step 1', 'Step 3']);
    expect(Object.keys(working.flows)).toHaveLength(0);
  });

  it('round trip: export, import into a new process, export again gives the same tasks, flows and geometry', async () => {
    const source = await newProcess('Round trip');
    await api.call('POST', `/api/v1/process/nodes?process=${source}`, { token, body: chain(5) });
    const first = (await exportOf(source)).text;
    const copy = await newProcess('Round trip copy');
    const imported = await importInto(copy, first);
    expect(imported.status).toBe(200);
    expect(imported.body.tasks).toHaveLength(5);
    expect(imported.body.edges).toHaveLength(4);
    expect(imported.body.process.version).toBe('0.0002');
    const second = (await exportOf(copy)).text;
    expect(await drawnIn(second)).toEqual(await drawnIn(first));
    const read = await diagram(copy);
    expect(read.tasks.map((t: { name: string }) => t.name)).toEqual([
      'Step 1',
      'Step 2',
      'Step 3',
      'Step 4',
      'Step 5',
    ]);
    expect(read.edges).toHaveLength(4);
  });

  it('after an import, changes made through the API show in the export; kept elements stay', async () => {
    const processId = await newProcess('A.2.0 edited');
    const imported = await importInto(processId, readReference('A.2.0.bpmn'));
    expect(imported.status).toBe(200);
    expect(imported.body.report).toEqual(
      expect.arrayContaining([expect.objectContaining({ type: 'bpmn:ExclusiveGateway', kept: true })]),
    );
    const [renamed, removed] = imported.body.tasks;
    const current = await api.call('GET', `/api/v1/items/${renamed.nodeId}?detail=true`, { token });
    await api.call('PUT', `/api/v1/items/${renamed.nodeId}`, {
      token,
      body: { ...current.body, '@type': 'TaskNode', name: 'Renamed here', topLeftX: 5000 },
    });
    await api.call('DELETE', `/api/v1/items/${removed.nodeId}`, { token });
    const before = await drawnIn(readReference('A.2.0.bpmn'));
    const after = await drawnIn((await exportOf(processId)).text);
    const renamedTask = Object.values(after.tasks).find((t) => t.name === 'Renamed here');
    expect(renamedTask?.bounds.startsWith('5000,')).toBe(true);
    expect(Object.keys(after.tasks)).toHaveLength(Object.keys(before.tasks).length - 1);
    // Gateways and events were kept with the process and come back.
    const gatewayIds = Object.keys(before.shapes).filter((id) => /Gateway/i.test(id));
    for (const id of gatewayIds) expect(after.shapes[id]).toBe(before.shapes[id]);
  });
});

describe('the MIWG reference models', () => {
  it.each(referenceFiles())('%s imports, and exports its tasks, flows and shapes unchanged', async (file) => {
    const processId = await newProcess(`MIWG ${file}`);
    const xml = readReference(file);
    const imported = await importInto(processId, xml);
    expect(imported.status, imported.text.slice(0, 300)).toBe(200);
    const exported = await exportOf(processId);
    expect(exported.status).toBe(200);
    const [before, after] = await Promise.all([drawnIn(xml), drawnIn(exported.text)]);
    expect(after.tasks).toEqual(before.tasks);
    expect(after.flows).toEqual(before.flows);
    expect(after.shapes).toEqual(before.shapes);
    expect(imported.body.tasks).toHaveLength(Object.keys(before.tasks).length);
  });

  it('reads them from the shared folder', () => {
    expect(MIWG_REFERENCE).toMatch(/bpmn-miwg/);
    expect(referenceFiles().length).toBeGreaterThanOrEqual(21);
  });
});

describe('names and text XML or the API cannot carry', () => {
  const HEAD =
    '<?xml version="1.0" encoding="UTF-8"?><bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" ' +
    'xmlns:x="http://ext" id="D1" targetNamespace="http://x"><bpmn:process id="P">';
  const TAIL = '</bpmn:process></bpmn:definitions>';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: what XML 1.0 cannot carry is what is looked for.
  const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|\p{Surrogate}/u;

  /** Sends the task back as retrieved, moved: what the API refuses in its name shows here. */
  const moved = async (nodeId: string) => {
    const current = await api.call('GET', `/api/v1/items/${nodeId}?detail=true`, { token });
    return api.call('PUT', `/api/v1/items/${nodeId}`, {
      token,
      body: { ...current.body, '@type': 'TaskNode', topLeftX: current.body.topLeftX + 10 },
    });
  };

  it('control characters in a task name become spaces, said in the report; the export is well-formed XML', async () => {
    const processId = await newProcess('Control characters');
    const xml =
      `${HEAD}<bpmn:task id="T1" name="a&#1;b&#x1B;c" x:flag="&#3;"><bpmn:documentation>d&#x1F;e</bpmn:documentation></bpmn:task>` +
      `<bpmn:task id="T2" name="&#7;"/><bpmn:exclusiveGateway id="G" name="g&#2;"/>${TAIL}`;
    const imported = await importInto(processId, xml);
    expect(imported.status, imported.text.slice(0, 300)).toBe(200);
    expect(imported.body.tasks.map((task: { name: string }) => task.name)).toEqual(['a b c', 'T2']);
    expect(imported.body.report).toEqual(
      expect.arrayContaining(
        ['T1', 'T2'].map((id) =>
          expect.objectContaining({ id, kept: true, reason: expect.stringMatching(/control characters/) }),
        ),
      ),
    );
    for (const task of imported.body.tasks) {
      const sent = await moved(task.nodeId);
      expect(sent.status, sent.text.slice(0, 300)).toBe(200);
    }
    const exported = await exportOf(processId);
    expect(exported.status).toBe(200);
    expect(exported.text).not.toMatch(NOT_XML);
    expect((await drawnIn(exported.text)).tasks.T1?.name).toBe('a b c');
    // The kept gateway, documentation and vendor attribute come back with U+FFFD where XML cannot follow.
    expect(exported.text).toContain('name="g\uFFFD"');
    expect(exported.text).toContain('d\uFFFDe');
    expect(exported.text).toContain('x:flag="\uFFFD"');
  });
  it('a long name is cut between characters, and half a character from the file is U+FFFD', async () => {
    const processId = await newProcess('Surrogates');
    const xml = `${HEAD}<bpmn:task id="T1" name="${'😀'.repeat(200)}"/><bpmn:task id="T2" name="x&#xD83D;y"/>${TAIL}`;
    const imported = await importInto(processId, xml);
    expect(imported.status, imported.text.slice(0, 300)).toBe(200);
    const [long, half] = imported.body.tasks;
    expect(long.name).toBe('😀'.repeat(127));
    expect(half.name).toBe('x\uFFFDy');
    expect(imported.body.report).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: 'T1', reason: expect.stringMatching(/name cut/) }),
        expect.objectContaining({ id: 'T2', reason: expect.stringMatching(/lone surrogates/) }),
      ]),
    );
    for (const task of imported.body.tasks) {
      const sent = await moved(task.nodeId);
      expect(sent.status, sent.text.slice(0, 300)).toBe(200);
    }
    const exported = await exportOf(processId);
    expect(exported.text).not.toMatch(NOT_XML);
    const { tasks } = await drawnIn(exported.text);
    expect(tasks.T1?.name).toBe('😀'.repeat(127));
    expect(tasks.T2?.name).toBe('x\uFFFDy');
  });
});

describe('the encoding of a file', () => {
  const file = (encoding: string, name: string) =>
    `<?xml version="1.0" encoding="${encoding}"?><bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" ` +
    `id="D1" targetNamespace="http://x"><bpmn:process id="P"><bpmn:task id="T1" name="${name}"/></bpmn:process></bpmn:definitions>`;

  it('is the one its byte order mark, charset or XML declaration names, else UTF-8; the export is UTF-8', async () => {
    const cases: [string, Buffer, string, string?][] = [
      ['ISO-8859-1, é as its one byte', Buffer.from(file('ISO-8859-1', 'Café'), 'latin1'), 'Café'],
      ['ISO-8859-1, holding the two bytes of é in UTF-8', Buffer.from(file('ISO-8859-1', 'Café')), 'CafÃ©'],
      ['UTF-8 after its byte order mark', Buffer.from(`\ufeff${file('UTF-8', 'Café')}`), 'Café'],
      [
        'UTF-16 after its byte order mark',
        Buffer.from(`\ufeff${file('UTF-16', 'Café 😀')}`, 'utf16le'),
        'Café 😀',
      ],
      [
        'charset ISO-8859-1, declaring UTF-8',
        Buffer.from(file('UTF-8', 'Café'), 'latin1'),
        'Café',
        'application/xml; charset=ISO-8859-1',
      ],
    ];
    for (const [label, body, name, contentType] of cases) {
      const processId = await newProcess(label);
      const imported = await importInto(processId, body, contentType);
      expect(imported.status, `${label}: ${imported.text.slice(0, 300)}`).toBe(200);
      expect(imported.body.tasks[0].name, label).toBe(name);
      const exported = await exportOf(processId);
      expect(exported.text).toMatch(/^<\?xml version="1\.0" encoding="UTF-8"\?>/);
      expect((await drawnIn(exported.text)).tasks.T1?.name, label).toBe(name);
    }
  });

  it('one this API does not read is refused naming it (declared: 400 xml_encoding; charset: 415)', async () => {
    const processId = await newProcess('EBCDIC');
    const declared = await importInto(processId, file('EBCDIC-US', 'x'));
    expect(declared.status).toBe(400);
    expect(declared.body.errors).toEqual([
      { in: 'body', path: '$', rule: 'xml_encoding', message: expect.stringContaining('"EBCDIC-US"') },
    ]);
    const sent = await importInto(processId, file('UTF-8', 'x'), 'text/xml; charset=utf-7');
    expect(sent.status).toBe(415);
    expect(sent.body.detail).toContain('"utf-7"');
    expect(sent.body.errors).toEqual([
      { in: 'header', path: '$.Content-Type', rule: 'charset', message: expect.stringContaining('"utf-7"') },
    ]);
    expect((await diagram(processId)).tasks).toEqual([]);
  });
});

describe('bad files', () => {
  it('are a 4xx naming the rule, and write nothing', async () => {
    const processId = await newProcess('Refusing');
    const xxe =
      '<?xml version="1.0"?><!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]>' +
      '<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL">&x;</bpmn:definitions>';
    const cases: [string | Buffer, number, string | undefined, string?][] = [
      [xxe, 400, 'xml_doctype'],
      ['<not-closed', 400, 'bpmn'],
      [
        '<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" id="d" targetNamespace="x">' +
          '<bpmn:process id="P"><bpmn:task id="T" name="&zz;"/></bpmn:process></bpmn:definitions>',
        400,
        'bpmn',
      ],
      ['<svg xmlns="http://www.w3.org/2000/svg"/>', 400, 'bpmn'],
      [
        '<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" id="d" targetNamespace="x"/>',
        400,
        'bpmn_process',
      ],
      [Buffer.alloc(3 * 1024 * 1024 + 1, 32), 413, undefined],
      ['<a/>', 415, undefined, 'application/json'],
    ];
    for (const [body, status, rule, contentType] of cases) {
      const refused = await importInto(processId, body, contentType);
      expect(refused.status, String(rule)).toBe(status);
      expect(refused.headers.get('content-type')).toContain('application/problem+json');
      if (rule) expect(refused.body.errors[0]).toMatchObject({ in: 'body', rule });
    }
    const read = await diagram(processId);
    expect(read.tasks).toEqual([]);
    expect(read.version).toBe('0.0001');
  });

  /** Two drawn tasks and a drawn flow between them; `bounds` replaces attributes of task A's dc:Bounds. */
  const drawnFile = (bounds: Record<string, string>, waypointX = '200') => {
    const boundsOfA = Object.entries({ x: '0', y: '0', width: '100', height: '80', ...bounds })
      .map(([name, value]) => `${name}="${value}"`)
      .join(' ');
    return `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"
  xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI" xmlns:dc="http://www.omg.org/spec/DD/20100524/DC"
  xmlns:di="http://www.omg.org/spec/DD/20100524/DI" id="Definitions_1" targetNamespace="urn:test">
  <bpmn:process id="P">
    <bpmn:task id="A" name="A"/><bpmn:task id="B" name="B"/>
    <bpmn:sequenceFlow id="F" sourceRef="A" targetRef="B"/>
  </bpmn:process>
  <bpmndi:BPMNDiagram id="D"><bpmndi:BPMNPlane id="Plane" bpmnElement="P">
    <bpmndi:BPMNShape id="A_di" bpmnElement="A"><dc:Bounds ${boundsOfA}/></bpmndi:BPMNShape>
    <bpmndi:BPMNShape id="B_di" bpmnElement="B"><dc:Bounds x="300" y="0" width="100" height="80"/></bpmndi:BPMNShape>
    <bpmndi:BPMNEdge id="F_di" bpmnElement="F"><di:waypoint x="100" y="40"/><di:waypoint x="${waypointX}" y="40"/></bpmndi:BPMNEdge>
  </bpmndi:BPMNPlane></bpmndi:BPMNDiagram>
</bpmn:definitions>`;
  };

  it.each([
    ['a NaN height', drawnFile({ height: 'NaN' }), /BPMNShape A_di \(of A\).*dc:Bounds.*\bheight\b/],
    ['an x of abc', drawnFile({ x: 'abc' }), /BPMNShape A_di \(of A\).*dc:Bounds.*\bx\b/],
    ['an Infinity width', drawnFile({ width: 'Infinity' }), /BPMNShape A_di \(of A\).*dc:Bounds.*\bwidth\b/],
    ['an empty y', drawnFile({ y: '' }), /BPMNShape A_di \(of A\).*dc:Bounds.*\by\b/],
    ['a waypoint x of far', drawnFile({}, 'far'), /BPMNEdge F_di \(of F\).*di:waypoint 2.*\bx\b/],
    ['an x of 12abc', drawnFile({ x: '12abc' }), /BPMNShape A_di \(of A\).*dc:Bounds.*\bx\b.*"12abc"/],
    ['a waypoint x of 0x10', drawnFile({}, '0x10'), /BPMNEdge F_di \(of F\).*di:waypoint 2.*\bx\b.*"0x10"/],
  ])('a diagram with %s is a 400 naming the shape or edge, and writes nothing', async (_, xml, names) => {
    const processId = await newProcess('Not a number');
    const before = await diagram(processId);
    const refused = await importInto(processId, xml, 'application/xml');
    expect(refused.status, refused.text.slice(0, 300)).toBe(400);
    expect(refused.headers.get('content-type')).toContain('application/problem+json');
    expect(refused.body.errors).toEqual([
      { in: 'body', path: '$', rule: 'bpmn_geometry', message: expect.stringMatching(names) },
    ]);
    const after = await diagram(processId);
    expect(after.version).toBe(before.version);
    expect(after.tasks).toEqual(before.tasks);
    expect(after.edges).toEqual(before.edges);
  });

  it('finite bounds and waypoints out of range are brought within range and reported, not refused', async () => {
    const processId = await newProcess('Out of range');
    const imported = await importInto(processId, drawnFile({ x: '1e9', width: '-5', height: '0' }, '1e9'));
    expect(imported.status, imported.text.slice(0, 300)).toBe(200);
    expect(imported.body.report).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: 'A', reason: expect.stringMatching(/within range/) }),
        expect.objectContaining({ id: 'F', reason: expect.stringMatching(/within range/) }),
      ]),
    );
    const read = await diagram(processId);
    expect(read.tasks[0]).toMatchObject({ topLeftX: 1_000_000, width: 1, height: 1 });
    expect(read.edges[0].targetPortPoint).toEqual({ x: 1_000_000, y: 40 });
  });

  describe('a file the export could not write', () => {
    const HEAD =
      '<?xml version="1.0" encoding="UTF-8"?><bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" ' +
      'xmlns:x="http://ext" id="D1" targetNamespace="http://x"><bpmn:process id="P">';
    const TAIL = '</bpmn:process></bpmn:definitions>';
    /** A task whose extension elements nest `depth` deep, `times` over. */
    const nestedExtensions = (depth: number, times = 1) =>
      `${HEAD}<bpmn:task id="T1" name="Deep"><bpmn:extensionElements>${`${'<x:a>'.repeat(depth)}${'</x:a>'.repeat(depth)}`.repeat(times)}</bpmn:extensionElements></bpmn:task>${TAIL}`;

    it('nesting deeper than 100 levels is a 400 xml_depth, and writes nothing', async () => {
      const subProcesses = (depth: number) =>
        `${HEAD}<bpmn:task id="T1"/>${Array.from({ length: depth }, (_, i) => `<bpmn:subProcess id="S${i}">`).join('')}${'</bpmn:subProcess>'.repeat(depth)}${TAIL}`;
      const processId = await newProcess('Too deep');
      for (const xml of [nestedExtensions(2_000), subProcesses(1_800), nestedExtensions(98)]) {
        const refused = await importInto(processId, xml);
        expect(refused.status, refused.text.slice(0, 300)).toBe(400);
        expect(refused.body.errors).toEqual([
          { in: 'body', path: '$', rule: 'xml_depth', message: expect.stringMatching(/at most 100 levels/) },
        ]);
      }
      expect((await diagram(processId)).tasks).toEqual([]);
      // 100 levels: the root, the process, the task, its extension elements and 96 more.
      const deepest = await newProcess('Deep enough');
      expect((await importInto(deepest, nestedExtensions(96))).status).toBe(200);
      expect((await exportOf(deepest)).status).toBe(200);
    });

    it('one whose export would not fit in an answer is a 400 bpmn_export_size', async () => {
      // Under 3 MiB as sent; every `>` is written back as `&gt;`.
      const documented = `${HEAD}<bpmn:task id="T1" name="T"><bpmn:documentation>${'>'.repeat(2_900_000)}</bpmn:documentation></bpmn:task>${TAIL}`;
      const processId = await newProcess('Escapes too large');
      const refused = await importInto(processId, documented);
      expect(refused.status, refused.text.slice(0, 300)).toBe(400);
      expect(refused.body.errors).toEqual([
        {
          in: 'body',
          path: '$',
          rule: 'bpmn_export_size',
          message: expect.stringMatching(/at most 4194304 bytes/),
        },
      ]);
      expect((await diagram(processId)).tasks).toEqual([]);
    });

    it('one that only indented would not fit exports without indentation', async () => {
      // 400 KB of elements 94 deep: indented, over 7 MB.
      const xml = nestedExtensions(90, 400);
      const processId = await newProcess('Indents too large');
      const imported = await importInto(processId, xml);
      expect(imported.status, imported.text.slice(0, 300)).toBe(200);
      const exported = await exportOf(processId);
      expect(exported.status, exported.text.slice(0, 300)).toBe(200);
      expect(exported.text).not.toMatch(/\n {2}/);
      expect(await drawnIn(exported.text)).toEqual(await drawnIn(xml));
      const again = await newProcess('Indents too large, again');
      expect((await importInto(again, exported.text)).status).toBe(200);
    });
  });

  it('a file with more flows between tasks than a process holds edges is a 409, and writes nothing', async () => {
    const flows = (count: number) =>
      '<?xml version="1.0" encoding="UTF-8"?><bpmn:definitions ' +
      'xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" id="D1" targetNamespace="http://x">' +
      '<bpmn:process id="P"><bpmn:task id="A" name="A"/><bpmn:task id="B" name="B"/>' +
      Array.from(
        { length: count },
        (_, i) => `<bpmn:sequenceFlow id="F${i}" sourceRef="A" targetRef="B"/>`,
      ).join('') +
      '</bpmn:process></bpmn:definitions>';
    const processId = await newProcess('Too many flows');
    const refused = await importInto(processId, flows(3_001));
    expect([refused.status, refused.body.code]).toEqual([409, 'TOO_MANY_EDGES']);
    expect(await diagram(processId)).toMatchObject({ tasks: [], edges: [] });
    // The file was not kept either: the export is a fresh file.
    expect((await drawnIn((await exportOf(processId)).text)).tasks).toEqual({});
    const imported = await importInto(processId, flows(3_000));
    expect(imported.status, imported.text.slice(0, 300)).toBe(200);
    expect((await diagram(processId)).edges).toHaveLength(3_000);
  });

  it('a process that has tasks already is a 409', async () => {
    const processId = await newProcess('Not empty');
    await api.call('POST', `/api/v1/process/nodes?process=${processId}`, { token, body: chain(1) });
    const refused = await importInto(processId, readReference('A.1.0.bpmn'));
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('PROCESS_NOT_EMPTY');
    expect((await diagram(processId)).tasks).toHaveLength(1);
  });
});
