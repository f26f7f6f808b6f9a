/**
 * BPMN 2.0 in: the tasks directly in the file's processes and the sequence flows between them become the
 * process's TASK nodes and edges; everything else stays in the file, which is kept as the template that
 * writeBpmn gives back, and is listed in the report.
 */
import { BPMN_LIMITS } from '#shared/domain/bpmn-import.ts';
import { ValidationError } from '#shared/domain/errors.ts';
import {
  bpmnRefusal,
  parserComplaint,
  refuseDeclarations,
  refuseDeepNesting,
  refuseUndeclaredReferences,
} from './bpmn-refusals.ts';
import type { ImportedDiagram, ImportedEdge, ImportedTask, Point, ReportedElement } from './diagram.ts';
import { type DiagramIndex, indexDiagram } from './diagram-index.ts';
import { answerBytes } from './export-size.ts';
import { boxOf, centreOf, pointOf, SHAPELESS_BOX } from './geometry.ts';
import { geometryRefusal, refuseMalformedGeometry } from './geometry-text.ts';
import { type ParsedDefinitions, parseDefinitions, serializeDefinitions } from './moddle.ts';
import type { Bounds, Definitions, Edge, ModdleElement, Shape } from './moddle-elements.ts';
import { reportKeptElements, reportWarnings } from './report-elements.ts';
import { importedTaskName, keepableName } from './task-types.ts';

function importTasks(index: DiagramIndex, report: ReportedElement[]): ImportedTask[] {
  return [...index.tasks.values()].map(({ element }, at) => {
    const shape = index.shapes.get(element);
    if (!shape) {
      report.push({
        type: element.$type,
        id: element.id ?? null,
        name: element.name ?? null,
        kept: true,
        reason: `imported, but the diagram has no shape for it: placed at 0,0 with size ${SHAPELESS_BOX.width}×${SHAPELESS_BOX.height}`,
      });
    }
    const name = importedTaskName(element);
    if (element.name && keepableName(element.name) !== element.name) {
      report.push({
        type: element.$type,
        id: element.id ?? null,
        name,
        kept: true,
        reason:
          'imported with the control characters in its name made spaces and its broken characters (lone ' +
          'surrogates) U+FFFD, as names allow neither',
      });
    }
    return {
      bpmnElementId: element.id ?? '',
      bpmnKind: element.$type,
      name,
      sequenceNumber: at + 1,
      ...(shape?.bounds ? boxOf(shape.bounds) : SHAPELESS_BOX),
    };
  });
}

/** Where a flow leaves and enters: its drawn ends, or the centres of its tasks when it is not drawn. */
function importedPorts(
  flow: ModdleElement,
  source: ModdleElement,
  target: ModdleElement,
  index: DiagramIndex,
): [Point, Point] {
  const waypoints = index.edges.get(flow)?.waypoint ?? [];
  const first = waypoints[0];
  const last = waypoints[waypoints.length - 1];
  if (waypoints.length >= 2 && first && last) return [pointOf(first), pointOf(last)];
  const centre = (task: ModdleElement) => {
    const bounds = index.shapes.get(task)?.bounds;
    return centreOf(bounds ? boxOf(bounds) : SHAPELESS_BOX);
  };
  return [centre(source), centre(target)];
}

function importEdges(index: DiagramIndex): ImportedEdge[] {
  return [...index.taskFlows.values()].map(({ flow }) => {
    // The index only holds flows whose both ends are tasks with ids.
    const source = flow.sourceRef as ModdleElement;
    const target = flow.targetRef as ModdleElement;
    const [sourcePortPoint, targetPortPoint] = importedPorts(flow, source, target, index);
    return {
      bpmnElementId: flow.id ?? '',
      sourceElementId: source.id ?? '',
      targetElementId: target.id ?? '',
      sourcePortPoint,
      targetPortPoint,
    };
  });
}

/**
 * Refuses a diagram that draws a shape, an edge or a label with a coordinate or size the parser read as
 * no finite number (NaN, Infinity), naming the drawing element by its id and the element it draws. The
 * text of each was judged before parsing (refuseMalformedGeometry); this holds for whatever the parser
 * took a bound from. A missing attribute stays allowed (x and y read as 0), and a finite value out of
 * range is brought within range later, as before.
 */
function refuseUnreadableGeometry(index: DiagramIndex): void {
  // A coordinate left out reads as its schema's default, which bpmn-moddle gives as the text "0".
  const finite = (value: number | undefined) => value === undefined || Number.isFinite(Number(value));
  for (const plane of index.planes) {
    for (const drawn of plane.planeElement ?? []) {
      const { bpmnElement, bounds, label, waypoint } = drawn as Shape & Edge;
      const name = `${drawn.$type} ${drawn.id ?? '(without id)'}${bpmnElement?.id ? ` (of ${bpmnElement.id})` : ''}`;
      const checkBounds = (box: Bounds | undefined, part: string) => {
        for (const attribute of ['x', 'y', 'width', 'height'] as const) {
          if (box && !finite(box[attribute])) throw geometryRefusal(name, part, attribute);
        }
      };
      checkBounds(bounds, 'dc:Bounds');
      checkBounds(label?.bounds, "label's dc:Bounds");
      for (const [at, point] of (waypoint ?? []).entries()) {
        for (const attribute of ['x', 'y'] as const) {
          if (!finite(point[attribute])) throw geometryRefusal(name, `di:waypoint ${at + 1}`, attribute);
        }
      }
    }
  }
}

/**
 * Refuses a file whose export would not leave room in the function's answer (BPMN_LIMITS), measured as
 * written without indentation: what escaping and indenting add to a file is not bounded by its size.
 */
async function refuseUnexportable(definitions: Definitions): Promise<void> {
  const bytes = answerBytes(await serializeDefinitions(definitions, false));
  if (bytes > BPMN_LIMITS.importedExportBytes) {
    throw bpmnRefusal(
      'bpmn_export_size',
      `would export as ${bytes} bytes; an export of an imported file may take at most ` +
        `${BPMN_LIMITS.importedExportBytes} bytes (escaped as JSON), so that it fits in an answer`,
    );
  }
}

async function parseOrRefuse(xml: string): Promise<ParsedDefinitions> {
  try {
    return await parseDefinitions(xml);
  } catch (error) {
    throw bpmnRefusal('bpmn', `is not a BPMN 2.0 file the parser can read: ${parserComplaint(error)}`);
  }
}

/** The longest id a task or sequence flow may have: kept with each, as the export gives it back. */
const MAX_ELEMENT_ID_LENGTH = 255;

/** A task's or flow's id is stored with the task or edge; one of 400,000 characters would not fit an item. */
function refuseLongIds(index: DiagramIndex): void {
  const elements = [...index.tasks.values(), ...index.taskFlows.values()].map(
    (entry) => ('element' in entry ? entry.element : entry.flow) as ModdleElement,
  );
  const long = elements.find((element) => (element.id ?? '').length > MAX_ELEMENT_ID_LENGTH);
  if (long?.id) {
    throw bpmnRefusal(
      'bpmn_id',
      `has a ${long.$type} whose id is ${long.id.length} characters (${JSON.stringify(long.id.slice(0, 40))}…); ` +
        `the ids of tasks and sequence flows may have at most ${MAX_ELEMENT_ID_LENGTH}`,
    );
  }
}

async function importDiagram(xml: string): Promise<ImportedDiagram> {
  refuseDeclarations(xml);
  refuseDeepNesting(xml);
  refuseUndeclaredReferences(xml);
  const { definitions, warnings } = await parseOrRefuse(xml);
  const index = indexDiagram(definitions);
  if (index.processes.length === 0) {
    throw bpmnRefusal(
      'bpmn_process',
      'contains no BPMN process (bpmn:process), so there are no tasks to import',
    );
  }
  refuseMalformedGeometry(xml);
  refuseUnreadableGeometry(index);
  refuseLongIds(index);
  await refuseUnexportable(definitions);
  const report: ReportedElement[] = [];
  const tasks = importTasks(index, report);
  const edges = importEdges(index);
  const imported = new Set<ModdleElement>([
    ...[...index.tasks.values()].map((entry) => entry.element),
    ...[...index.taskFlows.values()].map((entry) => entry.flow),
  ]);
  report.push(...reportKeptElements(definitions, index, imported), ...reportWarnings(warnings));
  return { tasks, edges, report, template: xml };
}

/**
 * Reads a BPMN 2.0 file. Refuses, as a ValidationError on `$`, a file with a DOCTYPE or entity declaration
 * (rule xml_doctype), one nesting elements deeper than BPMN_LIMITS.nestingDepth (rule xml_depth), one that
 * is not well-formed XML (among them one referring to an entity XML does not predefine) or not BPMN 2.0
 * definitions (rule bpmn), one without a process (rule bpmn_process), one whose diagram has a bound or
 * waypoint that is not written as a finite number (rule bpmn_geometry: `12abc` and `0x10` are not, though
 * parseFloat reads one from them), and one whose export would not fit in an answer (rule bpmn_export_size).
 */
export async function readBpmn(xml: string): Promise<ImportedDiagram> {
  try {
    return await importDiagram(xml);
  } catch (error) {
    if (error instanceof ValidationError) throw error;
    // Whatever else a hostile or broken file makes fail is still a file we cannot read, not a server fault.
    throw bpmnRefusal('bpmn', `is not a BPMN 2.0 file that can be imported: ${parserComplaint(error)}`);
  }
}
