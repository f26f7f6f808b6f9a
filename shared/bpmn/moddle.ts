/**
 * The one place that talks to bpmn-moddle: parse, create, serialize. One instance serves every call; it holds
 * only the meta-model (and a cache of types built from it), never a document.
 */
import { BpmnModdle, type ParseWarning } from 'bpmn-moddle';
import type { Definitions, ModdleElement } from './moddle-elements.ts';

const moddle = new BpmnModdle();

export interface ParsedDefinitions {
  definitions: Definitions;
  warnings: ParseWarning[];
}

/** Rejects with the parser's own message when the text is not well-formed XML or not BPMN 2.0 definitions. */
export async function parseDefinitions(xml: string): Promise<ParsedDefinitions> {
  const { rootElement, warnings } = await moddle.fromXML(xml);
  return { definitions: rootElement as Definitions, warnings };
}

export function createElement<T extends ModdleElement>(type: string, attrs: Record<string, unknown> = {}): T {
  return moddle.create(type, attrs) as T;
}

/** As XML; `format`: one element a line, indented two spaces a level. */
export async function serializeDefinitions(definitions: Definitions, format: boolean): Promise<string> {
  const { xml } = await moddle.toXML(definitions, { format });
  return xml;
}
