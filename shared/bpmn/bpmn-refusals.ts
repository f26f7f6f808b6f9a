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
  | 'bpmn_id'
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

/** A reference XML knows without a DOCTYPE: a predefined entity, or a character by its number. */
const REFERENCE = /&(?:amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);/y;

/** Where `at` is in the text, as editors count: line and column from 1. */
function position(xml: string, at: number): string {
  const before = xml.slice(0, at);
  const lineStart = before.lastIndexOf('\n') + 1;
  return `line ${before.split('\n').length}, column ${at - lineStart + 1}`;
}

/**
 * Without a DOCTYPE (refused above) XML has no entities but its five predefined ones, so a reference to
 * any other (`&nbsp;`, `&zz;`) and a `&` that starts no reference are not well-formed (XML 1.0 §4.1,
 * well-formedness constraint "Entity Declared"); the parser would keep them as text. Refused as the
 * parser's own complaints are (rule bpmn). In comments, CDATA sections and processing instructions a
 * `&` is text.
 */
export function refuseUndeclaredReferences(xml: string): void {
  scanMarkup(xml, (kind, from, to) => {
    if (kind === 'declaration') return;
    for (let at = xml.indexOf('&', from); at !== -1 && at < to; at = xml.indexOf('&', at + 1)) {
      REFERENCE.lastIndex = at;
      if (REFERENCE.test(xml)) continue;
      const written = /^&[^\s&;<>"']{0,20};?/.exec(xml.slice(at, at + 22))?.[0] ?? '&';
      throw bpmnRefusal(
        'bpmn',
        `is not a BPMN 2.0 file the parser can read: ${JSON.stringify(written)} at ${position(xml, at)} is not ` +
          'well-formed XML: without a DOCTYPE, the only entities are amp, lt, gt, quot and apos, and a lone & ' +
          'is written &amp;',
      );
    }
  });
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
