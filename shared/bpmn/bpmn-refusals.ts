/**
 * Why an uploaded BPMN file is refused, as validation errors on the body (`$`), so the client learns which
 * rule the file breaks rather than getting a server error.
 */
import { BPMN_LIMITS } from '#shared/domain/bpmn-import.ts';
import { bodyError, ValidationError } from '#shared/domain/errors.ts';
import { nestingDepth, scanMarkup } from './xml-markup.ts';

export type BpmnRule =
  | 'xml_doctype'
  | 'xml_depth'
  | 'bpmn'
  | 'bpmn_process'
  | 'bpmn_geometry'
  | 'bpmn_export_size';

export function bpmnRefusal(rule: BpmnRule, message: string): ValidationError {
  return new ValidationError([bodyError('$', rule, message)]);
}

/**
 * A DOCTYPE can declare entities that expand without bound or read local files (XXE); BPMN never needs
 * one. Any `<!` declaration in the markup (a DOCTYPE, an ENTITY, in any case) is refused; one that is text
 * of a comment or a CDATA section (`<![CDATA[<!DOCTYPE html>]]>`) is only text, and stays allowed.
 */
export function refuseDeclarations(xml: string): void {
  let declared = false;
  scanMarkup(xml, (kind) => {
    if (kind === 'declaration') declared = true;
  });
  if (declared) {
    throw bpmnRefusal('xml_doctype', 'DOCTYPE and entity declarations are not accepted in a BPMN file');
  }
}

/** Elements nested deeper than the import and export walk (a BPMN model nests a dozen deep). */
export function refuseDeepNesting(xml: string): void {
  const depth = nestingDepth(xml);
  if (depth > BPMN_LIMITS.nestingDepth) {
    throw bpmnRefusal(
      'xml_depth',
      `nests elements ${depth} deep; at most ${BPMN_LIMITS.nestingDepth} levels are accepted in a BPMN file`,
    );
  }
}

/** The parser's complaint on one line: its messages carry tabs and line breaks meant for a console. */
export function parserComplaint(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\s+/g, ' ').trim() || 'unknown parser error';
}
