/** What an import refuses, and what it says about what it does not take as tasks and edges. */
import { describe, expect, it } from 'vitest';
import { readBpmn } from '#shared/bpmn/read-bpmn.ts';
import { ValidationError } from '#shared/domain/errors.ts';
import { readReference } from './bpmn-test-support.ts';

const BPMN = 'http://www.omg.org/spec/BPMN/20100524/MODEL';

/** A small BPMN file around `content` (fixtures for the parser, not output of the code under test). */
const bpmnFile = (content: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="${BPMN}" xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI"
  xmlns:dc="http://www.omg.org/spec/DD/20100524/DC" xmlns:vendor="urn:vendor" id="Definitions_1"
  targetNamespace="urn:test">${content}</bpmn:definitions>`;

async function refusal(xml: string) {
  const error = await readBpmn(xml).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ValidationError);
  const [fieldError, ...more] = (error as ValidationError).details.errors ?? [];
  expect(more).toEqual([]);
  expect(fieldError).toMatchObject({ in: 'body', path: '$' });
  return fieldError as { rule: string; message: string };
}

describe('readBpmn refuses', () => {
  it('a DOCTYPE or entity declaration, such as an XXE payload, before parsing', async () => {
    const xxe = `<?xml version="1.0"?>
<!DOCTYPE definitions [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
${bpmnFile('<bpmn:process id="P"><bpmn:task id="T" name="&xxe;"/></bpmn:process>').replace(/^<\?xml[^>]*>\s*/, '')}`;
    const error = await refusal(xxe);
    expect(error.rule).toBe('xml_doctype');
    expect(error.message).toMatch(/DOCTYPE and entity declarations are not accepted/);
    expect((await refusal(xxe.replace('<!DOCTYPE', '<!doctype'))).rule).toBe('xml_doctype');
    const laughs = '<!ENTITY lol "lol"><bpmn:definitions/>';
    expect((await refusal(laughs)).rule).toBe('xml_doctype');
    // After a comment or the root's start, a declaration is still one.
    const afterComment = `<!-- a comment --><!DOCTYPE d [<!ENTITY x "y">]>${bpmnFile('<bpmn:process id="P"/>')}`;
    expect((await refusal(afterComment)).rule).toBe('xml_doctype');
    const inside = bpmnFile('<!DOCTYPE d [<!ENTITY x "y">]><bpmn:process id="P"/>');
    expect((await refusal(inside)).rule).toBe('xml_doctype');
  });

  it('text that is not well-formed XML, naming what the parser found', async () => {
    for (const garbage of ['', 'this is not XML', '{"process": "json"}', bpmnFile('<bpmn:process id="P">')]) {
      const error = await refusal(garbage);
      expect(error.rule).toBe('bpmn');
      expect(error.message).toMatch(/^is not a BPMN 2\.0 file the parser can read: \S/);
    }
  });

  it('a reference to an entity XML does not predefine, or a & that starts no reference, naming it', async () => {
    for (const [content, written] of [
      ['<bpmn:task id="T" name="&zz;"/>', '"&zz;" at line 5, column 46'],
      ['<bpmn:task id="T" name="Fish & chips"/>', '"&"'],
      ['<bpmn:task id="T" name="&#65"/>', '"&#65"'],
      ['<bpmn:task id="T" name="&AMP;"/>', '"&AMP;"'],
      ['<bpmn:task id="T" name="&#x;"/>', '"&#x;"'],
      ['<bpmn:task id="T"><bpmn:documentation>a &nbsp; b</bpmn:documentation></bpmn:task>', '"&nbsp;"'],
      ['<bpmn:task id="T"/>&', '"&"'],
    ]) {
      const error = await refusal(bpmnFile(`\n<bpmn:process id="P">${content}</bpmn:process>`));
      expect(error.rule, content).toBe('bpmn');
      expect(error.message).toMatch(/^is not a BPMN 2\.0 file the parser can read: /);
      expect(error.message).toContain(written);
    }
  });

  it('XML that is not BPMN 2.0 definitions', async () => {
    for (const xml of [
      '<html><body>hello</body></html>',
      `<bpmn:process xmlns:bpmn="${BPMN}" id="P"/>`,
      '<definitions xmlns="http://www.omg.org/bpmn20"><process id="P"/></definitions>',
    ]) {
      const error = await refusal(xml);
      expect(error.rule).toBe('bpmn');
      expect(error.message).toMatch(/failed to parse document as <bpmn:Definitions>/);
    }
  });

  /**
   * A drawn task (with a label) and flow; `bounds`, `label` and `waypoint` are attributes as written, `dc`
   * and `di` the prefixes of the DC and DI namespaces, declared on the plane.
   */
  const drawnFile = ({
    bounds = 'x="0" y="0"',
    label = 'x="0" y="0" width="10" height="10"',
    waypoint = 'x="100" y="40"',
    dc = 'dc',
    di = 'di',
  }) =>
    bpmnFile(`<bpmn:process id="P"><bpmn:task id="T" name="t"/><bpmn:task id="U" name="u"/>
      <bpmn:sequenceFlow id="F" sourceRef="T" targetRef="U"/></bpmn:process>
      <bpmndi:BPMNDiagram id="D"><bpmndi:BPMNPlane id="Plane" bpmnElement="P"
        xmlns:${dc}="http://www.omg.org/spec/DD/20100524/DC" xmlns:${di}="http://www.omg.org/spec/DD/20100524/DI">
        <bpmndi:BPMNShape id="T_di" bpmnElement="T"><${dc}:Bounds ${bounds}/>
          <bpmndi:BPMNLabel><${dc}:Bounds ${label}/></bpmndi:BPMNLabel></bpmndi:BPMNShape>
        <bpmndi:BPMNEdge id="F_di" bpmnElement="F"><${di}:waypoint x="0" y="0"/><${di}:waypoint ${waypoint}/></bpmndi:BPMNEdge>
      </bpmndi:BPMNPlane></bpmndi:BPMNDiagram>`);

  it('a bound or waypoint not written as a finite number, though parseFloat reads a number from it', async () => {
    for (const x of [
      '0x10',
      '12abc',
      '1,5',
      '1px',
      '1_000',
      '0b1',
      '1 2',
      'abc',
      '',
      'NaN',
      'INF',
      '1e400',
      '+-1',
    ]) {
      const error = await refusal(drawnFile({ bounds: `x="${x}" y="0" width="100" height="80"` }));
      expect(error.rule, x).toBe('bpmn_geometry');
      expect(error.message).toMatch(
        /^has bpmndi:BPMNShape T_di \(of T\) whose dc:Bounds has an x that is not/,
      );
      if (x !== '') expect(error.message).toContain(JSON.stringify(x));
    }
    const waypoint = await refusal(drawnFile({ waypoint: 'x="100" y="4O"', dc: 'omgdc', di: 'omgdi' }));
    expect(waypoint.rule).toBe('bpmn_geometry');
    expect(waypoint.message).toMatch(/^has bpmndi:BPMNEdge F_di \(of F\) whose di:waypoint 2 has a y .*"4O"/);
    const label = await refusal(drawnFile({ label: 'x="0" y="0" width="10" height="9pt"' }));
    expect(label.message).toMatch(
      /^has bpmndi:BPMNShape T_di \(of T\) whose label's dc:Bounds has a height .*"9pt"/,
    );
  });

  it('a task or flow id too long to keep with it, naming the element', async () => {
    const long = `T${'x'.repeat(300)}`;
    for (const content of [
      `<bpmn:process id="P"><bpmn:task id="${long}"/></bpmn:process>`,
      `<bpmn:process id="P"><bpmn:task id="A"/><bpmn:task id="B"/><bpmn:sequenceFlow id="${long}" sourceRef="A" targetRef="B"/></bpmn:process>`,
    ]) {
      const { rule, message } = await refusal(bpmnFile(content));
      expect(rule).toBe('bpmn_id');
      expect(message).toMatch(/at most 255/);
    }
    // 255 is kept.
    const kept = await readBpmn(
      bpmnFile(`<bpmn:process id="P"><bpmn:task id="T${'x'.repeat(254)}"/></bpmn:process>`),
    );
    expect(kept.tasks).toHaveLength(1);
  });

  it('definitions without a process', async () => {
    const onlyPools = bpmnFile(
      '<bpmn:collaboration id="C"><bpmn:participant id="Pool" name="Black box"/></bpmn:collaboration>',
    );
    for (const xml of [bpmnFile(''), onlyPools]) {
      const error = await refusal(xml);
      expect(error.rule).toBe('bpmn_process');
      expect(error.message).toMatch(/no BPMN process/);
    }
  });
});

describe('readBpmn takes', () => {
  it('a file that mentions a DOCTYPE or an entity declaration only in a comment or a CDATA section', async () => {
    const imported = await readBpmn(
      bpmnFile(`<!-- <!ENTITY x "y"> -->
      <bpmn:process id="P">
        <bpmn:documentation><![CDATA[Start every page with <!DOCTYPE html>]]></bpmn:documentation>
        <bpmn:task id="T" name="Write &lt;!DOCTYPE&gt;" vendor:note="a > b"/>
        <!-- <!DOCTYPE d [<!ENTITY lol "lol">]> -->
      </bpmn:process>`),
    );
    expect(imported.tasks.map((task) => task.name)).toEqual(['Write <!DOCTYPE>']);
  });

  it('the predefined entities and character references, and a & in a comment, CDATA section or instruction', async () => {
    const imported = await readBpmn(
      bpmnFile(`<!-- Fish & chips --><?vendor a & b?>
      <bpmn:process id="P">
        <bpmn:task id="T" name="&lt;&amp;&gt;&quot;&apos; &#233;&#xE9;"><bpmn:documentation><![CDATA[&nbsp;]]></bpmn:documentation></bpmn:task>
      </bpmn:process>`),
    );
    expect(imported.tasks.map((task) => task.name)).toEqual([`<&>"' éé`]);
  });

  it('a task named with nothing but invisible marks, which the API takes for blank, by its id', async () => {
    const invisible = await readBpmn(
      bpmnFile(`<bpmn:process id="P"><bpmn:task id="Quiet" name="&#x200B;&#xAD;"/></bpmn:process>`),
    );
    expect(invisible.tasks.map((task) => task.name)).toEqual(['Quiet']);
  });

  it('a character beyond U+FFFF written by its reference, as that character', async () => {
    const imported = await readBpmn(
      bpmnFile(`<bpmn:process id="P">
        <bpmn:task id="T" name="Smile &#x1F600; &#128512; \u{1F600}"/>
      </bpmn:process>`),
    );
    expect(imported.tasks.map((task) => task.name)).toEqual(['Smile 😀 😀 😀']);
    // Six hexadecimal digits, the last plane's, on their own in a file.
    const lastPlane = await readBpmn(
      bpmnFile(`<bpmn:process id="P"><bpmn:task id="T" name="pua &#x100000;"/></bpmn:process>`),
    );
    expect(lastPlane.tasks.map((task) => task.name)).toEqual(['pua \u{100000}']);
  });

  it('bounds and waypoints written as XML Schema writes a double, whitespace and references around it', async () => {
    const xml = bpmnFile(`<bpmn:process id="P"><bpmn:task id="T" name="t"/></bpmn:process>
      <bpmndi:BPMNDiagram id="D"><bpmndi:BPMNPlane id="Plane" bpmnElement="P">
        <bpmndi:BPMNShape id="T_di" bpmnElement="T">
          <dc:Bounds x=" 12 " y="-.5e1" width="&#49;00" height="+8E1"/>
          <vendor:Bounds x="left" xmlns:vendor="urn:vendor"/>
        </bpmndi:BPMNShape>
      </bpmndi:BPMNPlane></bpmndi:BPMNDiagram>`);
    expect((await readBpmn(xml)).tasks[0]).toMatchObject({
      topLeftX: 12,
      topLeftY: -5,
      width: 100,
      height: 80,
    });
  });

  it('a bound or waypoint coordinate left out as 0, the default its schema gives', async () => {
    const imported = await readBpmn(
      bpmnFile(`<bpmn:process id="P"><bpmn:task id="T"/><bpmn:task id="U"/>
        <bpmn:sequenceFlow id="F" sourceRef="T" targetRef="U"/></bpmn:process>
        <bpmndi:BPMNDiagram id="D"><bpmndi:BPMNPlane id="Plane" bpmnElement="P"
          xmlns:di="http://www.omg.org/spec/DD/20100524/DI">
          <bpmndi:BPMNShape id="T_di" bpmnElement="T"><dc:Bounds width="100" height="80"/></bpmndi:BPMNShape>
          <bpmndi:BPMNEdge id="F_di" bpmnElement="F"><di:waypoint y="40"/><di:waypoint x="300"/></bpmndi:BPMNEdge>
        </bpmndi:BPMNPlane></bpmndi:BPMNDiagram>`),
    );
    expect(imported.tasks[0]).toMatchObject({ topLeftX: 0, topLeftY: 0, width: 100, height: 80 });
    expect(imported.edges[0]).toMatchObject({
      sourcePortPoint: { x: 0, y: 40 },
      targetPortPoint: { x: 300, y: 0 },
    });
  });

  it('the tasks of every process, in order of appearance, with their kinds and rounded bounds', async () => {
    const imported = await readBpmn(
      bpmnFile(`
      <bpmn:process id="P1">
        <bpmn:userTask id="U" name="  Approve  "/>
        <bpmn:startEvent id="S"/>
        <bpmn:serviceTask id="Unnamed"/>
        <bpmn:sequenceFlow id="F1" sourceRef="U" targetRef="Unnamed"/>
        <bpmn:sequenceFlow id="F2" sourceRef="S" targetRef="U"/>
      </bpmn:process>
      <bpmn:process id="P2"><bpmn:task id="T" name="Other pool"/></bpmn:process>
      <bpmndi:BPMNDiagram id="D"><bpmndi:BPMNPlane id="Plane" bpmnElement="P1">
        <bpmndi:BPMNShape id="U_di" bpmnElement="U"><dc:Bounds x="10.4" y="20.5" width="99.6" height="-0.4"/></bpmndi:BPMNShape>
        <bpmndi:BPMNShape id="Unnamed_di" bpmnElement="Unnamed"><dc:Bounds x="200" y="20" width="100" height="80"/></bpmndi:BPMNShape>
      </bpmndi:BPMNPlane></bpmndi:BPMNDiagram>`),
    );
    expect(imported.tasks).toEqual([
      {
        bpmnElementId: 'U',
        bpmnKind: 'bpmn:UserTask',
        name: 'Approve',
        sequenceNumber: 1,
        topLeftX: 10,
        topLeftY: 21,
        width: 100,
        height: 0,
      },
      {
        bpmnElementId: 'Unnamed',
        bpmnKind: 'bpmn:ServiceTask',
        name: 'Unnamed',
        sequenceNumber: 2,
        topLeftX: 200,
        topLeftY: 20,
        width: 100,
        height: 80,
      },
      {
        bpmnElementId: 'T',
        bpmnKind: 'bpmn:Task',
        name: 'Other pool',
        sequenceNumber: 3,
        topLeftX: 0,
        topLeftY: 0,
        width: 100,
        height: 80,
      },
    ]);
    // Not drawn: the flow runs between the centres of its tasks.
    expect(imported.edges).toEqual([
      {
        bpmnElementId: 'F1',
        sourceElementId: 'U',
        targetElementId: 'Unnamed',
        sourcePortPoint: { x: 60, y: 21 },
        targetPortPoint: { x: 250, y: 60 },
      },
    ]);
    expect(imported.report).toContainEqual(
      expect.objectContaining({ id: 'T', kept: true, reason: expect.stringMatching(/no shape/) }),
    );
    expect(imported.report).toContainEqual(
      expect.objectContaining({ type: 'bpmn:SequenceFlow', id: 'F2', kept: true }),
    );
  });

  it('flows between two tasks from their drawn ends', async () => {
    const imported = await readBpmn(readReference('A.1.0.bpmn'));
    expect(imported.edges[0]).toEqual({
      bpmnElementId: '_d77dd5ec-e4e7-420e-bbe7-8ac9cd1df599',
      sourceElementId: '_ec59e164-68b4-4f94-98de-ffb1c58a84af',
      targetElementId: '_820c21c0-45f3-473b-813f-06381cc637cd',
      sourcePortPoint: { x: 342, y: 351 },
      targetPortPoint: { x: 390, y: 351 },
    });
  });
});

describe('readBpmn reports', () => {
  it('the gateways, events and their flows of A.2.0 as kept with the process', async () => {
    const imported = await readBpmn(readReference('A.2.0.bpmn'));
    expect(imported.tasks.map((t) => t.name)).toEqual(['Task 1', 'Task 2', 'Task 3', 'Task 4']);
    expect(imported.edges).toEqual([]);
    const kept = (type: string) =>
      imported.report.filter((r) => r.type === type && r.kept).map((r) => r.name ?? r.id);
    expect(kept('bpmn:ExclusiveGateway')).toEqual(['Gateway\n(Split Flow)', 'Gateway\n(Merge Flows)']);
    expect(kept('bpmn:StartEvent')).toEqual(['Start Event']);
    expect(kept('bpmn:EndEvent')).toEqual(['End Event']);
    expect(kept('bpmn:SequenceFlow')).toHaveLength(9);
    expect(imported.report.every((r) => r.kept && r.reason.startsWith('kept with the process'))).toBe(true);
  });

  it('sub-processes with their contents, lanes, pools and message flows of A.4.0', async () => {
    const imported = await readBpmn(readReference('A.4.0.bpmn'));
    const types = new Set(imported.report.map((r) => r.type));
    for (const type of [
      'bpmn:SubProcess',
      'bpmn:Lane',
      'bpmn:LaneSet',
      'bpmn:Participant',
      'bpmn:MessageFlow',
      'bpmn:Collaboration',
    ]) {
      expect(types).toContain(type);
    }
    // Task 4 is inside a sub-process: kept, not imported.
    expect(imported.tasks.map((t) => t.name)).not.toContain('Task 4');
    expect(imported.report).toContainEqual(
      expect.objectContaining({
        name: 'Task 4',
        kept: true,
        reason: expect.stringMatching(/inside a sub-process/),
      }),
    );
  });

  it('what the parser could not read as not kept, and tolerates vendor extensions', async () => {
    const imported = await readBpmn(
      bpmnFile(`
      <bpmn:process id="P" vendor:flag="yes">
        <bpmn:extensionElements><vendor:settings level="3"/></bpmn:extensionElements>
        <bpmn:task id="T" name="Kept"/>
        <bpmn:unknownThing id="X"/>
        <bpmn:task id="9bad" name="Illegal id"/>
        <bpmn:sequenceFlow id="F" sourceRef="T" targetRef="Nowhere"/>
      </bpmn:process>`),
    );
    expect(imported.tasks.map((t) => t.bpmnElementId)).toEqual(['T']);
    const lost = imported.report.filter((r) => !r.kept);
    expect(lost).toContainEqual(
      expect.objectContaining({
        type: 'bpmn:unknownThing',
        id: null,
        reason: expect.stringMatching(/unknown type/),
      }),
    );
    expect(lost).toContainEqual(
      expect.objectContaining({ type: 'bpmn:task', reason: expect.stringMatching(/illegal ID <9bad>/) }),
    );
    expect(lost).toContainEqual(
      expect.objectContaining({
        type: 'bpmn:SequenceFlow',
        id: 'F',
        reason: expect.stringMatching(/<Nowhere>/),
      }),
    );
    expect(lost).toHaveLength(3);
  });
});
