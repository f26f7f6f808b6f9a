/**
 * The one place that talks to bpmn-moddle: parse, create, serialize. One instance serves every call; it holds
 * only the meta-model (and a cache of types built from it), never a document.
 */
import { BpmnModdle, type ParseWarning } from 'bpmn-moddle';
import type { Definitions, ModdleElement } from './moddle-elements.ts';
import {
  escapeLiteralWhitespace,
  normalizeAttributeWhitespace,
  writeSupplementaryReferences,
} from './xml-markup.ts';

const moddle = new BpmnModdle();

export interface ParsedDefinitions {
  definitions: Definitions;
  warnings: ParseWarning[];
}

/** Rejects with the parser's own message when the text is not well-formed XML or not BPMN 2.0 definitions. */
export async function parseDefinitions(xml: string): Promise<ParsedDefinitions> {
  // XML 1.0 §2.11: a processor reads every CR LF and lone CR as LF before anything else.
  const readable = normalizeAttributeWhitespace(writeSupplementaryReferences(xml.replace(/\r\n?/g, '\n')));
  const { rootElement, warnings } = await moddle.fromXML(readable);
  return { definitions: rootElement as Definitions, warnings };
}

export function createElement<T extends ModdleElement>(type: string, attrs: Record<string, unknown> = {}): T {
  return moddle.create(type, attrs) as T;
}

/**
 * Characters XML 1.0 cannot carry, not even as a character reference: C0 controls but tab, line feed and
 * carriage return, lone surrogates, U+FFFE and U+FFFF. The parser reads them from references (`&#1;`),
 * and bpmn-moddle writes what it holds as it is.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this pattern's job.
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|\p{Surrogate}/gu;

/**
 * As XML; `format`: one element a line, indented two spaces a level. Always well-formed XML 1.0: a
 * character XML cannot carry (in a name, a documentation, a vendor extension) is written as U+FFFD.
 */
export async function serializeDefinitions(definitions: Definitions, format: boolean): Promise<string> {
  const { xml } = await moddle.toXML(definitions, { format });
  return escapeLiteralWhitespace(xml.replace(NOT_XML, '\uFFFD'));
}
