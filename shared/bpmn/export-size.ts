/**
 * Whether an export fits in the function's answer, and the export as it fits: indented when that fits,
 * else without indentation.
 */
import { BPMN_LIMITS } from '#shared/domain/bpmn-import.ts';
import { serializeDefinitions } from './moddle.ts';
import type { Definitions } from './moddle-elements.ts';

/** The bytes an export takes in the function's answer: Lambda counts the answer as JSON. */
export const answerBytes = (xml: string): number => Buffer.byteLength(JSON.stringify(xml));

/**
 * Indenting gives every element a line and two spaces a level of nesting: many small, deeply nested
 * elements grow many times over. It is tried only when it cannot grow past a few answers, so a hostile
 * file costs no more memory than that.
 */
const INDENTING_CEILING = 4 * BPMN_LIMITS.exportBytes;

/**
 * The definitions as XML: indented when that fits in an answer, else without indentation; `fits` says
 * whether even that does.
 */
export async function serializeToFit(definitions: Definitions): Promise<{ xml: string; fits: boolean }> {
  const plain = await serializeDefinitions(definitions, false);
  let elements = 0;
  for (let at = plain.indexOf('<'); at !== -1; at = plain.indexOf('<', at + 1)) elements += 1;
  if (plain.length + elements * (1 + 2 * BPMN_LIMITS.nestingDepth) <= INDENTING_CEILING) {
    const indented = await serializeDefinitions(definitions, true);
    if (answerBytes(indented) <= BPMN_LIMITS.exportBytes) return { xml: indented, fits: true };
  }
  return { xml: plain, fits: answerBytes(plain) <= BPMN_LIMITS.exportBytes };
}
