/**
 * Every OMG MIWG reference model imports, and comes back from an export as it went in: through its
 * template when nothing changed, and as the same tasks and edges when written without one.
 */
import { describe, expect, it } from 'vitest';
import { readBpmn } from '#shared/bpmn/read-bpmn.ts';
import { writeBpmn } from '#shared/bpmn/write-bpmn.ts';
import {
  asRepository,
  countDrawn,
  diSnapshot,
  expectOpenable,
  PROCESS,
  parseModel,
  readReference,
  referenceFiles,
  semanticElements,
} from './bpmn-test-support.ts';

const files = referenceFiles();

describe('MIWG reference models', () => {
  it('are all there to be tested', () => {
    // The folder lives outside the repository: a wrong path must fail, not test nothing.
    expect(files.length).toBeGreaterThanOrEqual(21);
    expect(files).toContain('A.1.0.bpmn');
    expect(files).toContain('C.9.2.bpmn');
  });

  describe.each(files)('%s', (file) => {
    const xml = readReference(file);

    it('imports, accounting for every element of its processes', async () => {
      const imported = await readBpmn(xml);
      expect(imported.tasks.length).toBeGreaterThan(0);
      expect(imported.template).toBe(xml);
      expect(imported.tasks.map((t) => t.sequenceNumber)).toEqual(imported.tasks.map((_, at) => at + 1));
      for (const task of imported.tasks) {
        for (const value of [task.topLeftX, task.topLeftY, task.width, task.height]) {
          expect(Number.isInteger(value)).toBe(true);
        }
      }
      // Nothing dropped silently: each flow element, lane, artifact or participant is a task, an edge or reported.
      const { definitions } = await parseModel(xml);
      const accounted = new Set([
        ...imported.tasks.map((t) => t.bpmnElementId),
        ...imported.edges.map((e) => e.bpmnElementId),
        ...imported.report.map((r) => r.id),
      ]);
      const elements = semanticElements(definitions).filter((e) =>
        ['bpmn:FlowElement', 'bpmn:Artifact', 'bpmn:Lane', 'bpmn:Participant', 'bpmn:MessageFlow'].some(
          (type) => e.$instanceOf(type),
        ),
      );
      expect(elements.filter((e) => !accounted.has(e.id)).map((e) => e.id)).toEqual([]);
    });

    it('comes back unchanged through its template', async () => {
      const imported = await readBpmn(xml);
      const state = asRepository(imported);
      const output = await writeBpmn(imported.template, PROCESS, state.tasks, state.edges);

      const before = await parseModel(xml);
      await expectOpenable(output, xml);
      const after = await parseModel(output);
      expect(after.ids).toEqual(before.ids);
      expect(diSnapshot(after.definitions)).toEqual(diSnapshot(before.definitions));
      expect(countDrawn(after.definitions, 'bpmndi:BPMNShape')).toBe(
        countDrawn(before.definitions, 'bpmndi:BPMNShape'),
      );
      expect(countDrawn(after.definitions, 'bpmndi:BPMNEdge')).toBe(
        countDrawn(before.definitions, 'bpmndi:BPMNEdge'),
      );
      const semantic = (definitions: any) => {
        const elements = semanticElements(definitions);
        return {
          tasks: elements
            .filter((e) => imported.tasks.some((t) => t.bpmnElementId === e.id))
            .map((t) => [t.id, t.$type, t.name]),
          flows: elements
            .filter((e) => e.$type === 'bpmn:SequenceFlow')
            .map((f) => [f.id, f.sourceRef?.id, f.targetRef?.id]),
        };
      };
      expect(semantic(after.definitions)).toEqual(semantic(before.definitions));

      const reimported = await readBpmn(output);
      expect(reimported.tasks).toEqual(imported.tasks);
      expect(reimported.edges).toEqual(imported.edges);
    });

    it('comes back as the same tasks and edges without a template', async () => {
      const imported = await readBpmn(xml);
      const state = asRepository(imported);
      const output = await writeBpmn(null, PROCESS, state.tasks, state.edges);
      await expectOpenable(output);

      const reimported = await readBpmn(output);
      expect(reimported.tasks).toEqual(imported.tasks);
      expect(reimported.edges).toEqual(imported.edges);
    });
  });
});

describe('white space in names', () => {
  const file = (name: string) =>
    `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" id="D" targetNamespace="urn:t">
  <bpmn:process id="P"><bpmn:task id="T" name="${name}"/></bpmn:process>
</bpmn:definitions>`;

  it('written as references survives export and import; written literally in a file reads as XML reads it', async () => {
    // As references, tabs and line breaks are the name's own.
    const named = await readBpmn(file('Col1&#9;Col2 Line1&#13;&#10;Line2'));
    expect(named.tasks.map((task) => task.name)).toEqual(['Col1\tCol2 Line1\r\nLine2']);
    const state = asRepository(named);
    const output = await writeBpmn(null, PROCESS, state.tasks, state.edges);
    expect(output).toContain('name="Col1&#9;Col2 Line1&#13;&#10;Line2"');
    expect((await readBpmn(output)).tasks.map((task) => task.name)).toEqual(['Col1\tCol2 Line1\r\nLine2']);
    // Written literally in a value, each is a space (XML 1.0 §3.3.3), as every other reader has it.
    const literal = await readBpmn(file('Col1\tCol2 Line1\r\nLine2'));
    expect(literal.tasks.map((task) => task.name)).toEqual(['Col1 Col2 Line1 Line2']);
  });

  it('reads a file saved with CR LF line ends as XML does, so its exported text holds line feeds only', async () => {
    const windows = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" id="D" targetNamespace="urn:t">',
      '  <bpmn:process id="P"><bpmn:task id="T" name="Checked"><bpmn:documentation>line1\r\nline2\rline3</bpmn:documentation></bpmn:task></bpmn:process>',
      '</bpmn:definitions>',
    ].join('\r\n');
    const imported = await readBpmn(windows);
    const output = await writeBpmn(windows, PROCESS, asRepository(imported).tasks, []);
    expect(output).toContain('line1\nline2\nline3');
    expect(output).not.toContain('&#13;');
  });
});
