/**
 * The import's account of everything it did not take as a task or a task-to-task flow: what stays in the
 * template (and so comes back on export) and what the parser could not read at all (and so is lost).
 */
import type { ParseWarning } from 'bpmn-moddle';
import type { ReportedElement } from './diagram.ts';
import type { DiagramIndex } from './diagram-index.ts';
import { type Definitions, isModdleElement, type ModdleElement } from './moddle-elements.ts';
import { containedElements } from './model-graph.ts';

// What a reader of the report thinks of as an element of the diagram or of the definitions; their parts
// (documentation, extension elements, event definitions, data inputs...) go with them unmentioned.
const REPORTED_TYPES = [
  'bpmn:RootElement',
  'bpmn:FlowElement',
  'bpmn:Artifact',
  'bpmn:LaneSet',
  'bpmn:Lane',
  'bpmn:Participant',
  'bpmn:MessageFlow',
  'bpmn:ConversationNode',
  'bpmn:ConversationLink',
  'bpmn:Import',
];

const KEPT_AS_DIAGRAM_ELEMENT = 'kept with the process as a diagram element';

function kept(element: ModdleElement, reason: string): ReportedElement {
  return { type: element.$type, id: element.id ?? null, name: element.name ?? null, kept: true, reason };
}

function insideSubProcess(element: ModdleElement): boolean {
  for (let parent = element.$parent; parent; parent = parent.$parent) {
    if (parent.$instanceOf('bpmn:SubProcess')) return true;
  }
  return false;
}

function reasonKept(element: ModdleElement, index: DiagramIndex): string {
  if (element.$instanceOf('bpmn:Process')) {
    return 'kept with the process: its tasks and the flows between them are imported, the rest stays as it is';
  }
  if (element.$instanceOf('bpmn:RootElement')) return 'kept with the process as a definition of the file';
  if (insideSubProcess(element)) return `${KEPT_AS_DIAGRAM_ELEMENT}, inside a sub-process`;
  if (index.anonymousTasks.includes(element)) {
    return `${KEPT_AS_DIAGRAM_ELEMENT}: a task without an id cannot be imported as a task`;
  }
  if (element.$instanceOf('bpmn:SequenceFlow')) {
    return `${KEPT_AS_DIAGRAM_ELEMENT}: it connects an element that is not a task`;
  }
  return KEPT_AS_DIAGRAM_ELEMENT;
}

/** Every element of the definitions (not of the diagram interchange) that the import did not take. */
export function reportKeptElements(
  definitions: Definitions,
  index: DiagramIndex,
  imported: Set<ModdleElement>,
): ReportedElement[] {
  const report: ReportedElement[] = [];
  const semantic = [
    ...(definitions.rootElements ?? []),
    ...((definitions as { imports?: ModdleElement[] }).imports ?? []),
  ];
  for (const root of semantic) {
    for (const element of containedElements(root)) {
      if (imported.has(element) || !REPORTED_TYPES.some((type) => element.$instanceOf(type))) continue;
      report.push(kept(element, reasonKept(element, index)));
    }
  }
  return report;
}

const UNPARSABLE = /^unparsable content (?:<([^>\s]+)>?)?[\s\S]*?nested error: ([\s\S]*)$/;

/** What the lax parser skipped: it is not in the parsed model, so no export can give it back. */
export function reportWarnings(warnings: ParseWarning[]): ReportedElement[] {
  const report: ReportedElement[] = [];
  for (const warning of warnings) {
    // The text reached us already decoded; the declared encoding no longer matters.
    if (warning.message.startsWith('unsupported document encoding')) continue;
    const unparsable = UNPARSABLE.exec(warning.message);
    if (unparsable) {
      report.push({
        type: unparsable[1] ?? 'xml',
        id: null,
        name: null,
        kept: false,
        reason: `could not be read (${unparsable[2]?.trim()}), so it is not kept`,
      });
      continue;
    }
    const element = isModdleElement(warning.element) ? warning.element : undefined;
    const about = warning.property ? ` (${warning.property})` : '';
    const reason = warning.message.startsWith('unresolved reference')
      ? `its reference to <${String(warning.value)}>${about} names no element of the file: the reference is not kept`
      : `${warning.message}: not kept as written`;
    report.push({
      type: element?.$type ?? 'xml',
      id: element?.id ?? null,
      name: element?.name ?? null,
      kept: false,
      reason,
    });
  }
  return report;
}
