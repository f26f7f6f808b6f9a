/**
 * Ids for the BPMN elements an export creates. BPMN ids are XML NCNames (a letter or `_` first, no spaces,
 * no colon), and must be unique in the file: an id the parser refuses would drop the element on the next
 * import.
 */

import type { ModdleElement } from './moddle-elements.ts';
import { containedElements } from './model-graph.ts';

// The part of the NCName rule the parser checks (bpmn-moddle refuses an element whose id breaks it).
const NC_NAME = /^[a-z_][\w.-]*$/i;

export function isBpmnId(id: string | undefined): id is string {
  return id !== undefined && NC_NAME.test(id);
}

/** A repository id (an upper-case UUID, which may start with a digit) as the tail of a BPMN id. */
export function bpmnIdOf(prefix: string, repositoryId: string): string {
  return `${prefix}_${repositoryId.replace(/[^\w.-]/g, '_')}`;
}

/** Hands out ids no element of the model has yet. */
export class IdAllocator {
  private readonly taken = new Set<string>();

  constructor(root: ModdleElement) {
    for (const element of containedElements(root)) if (element.id) this.taken.add(element.id);
  }

  /** `preferred` when it is a valid id no one has, else `fallback`, else `fallback` with a counter. */
  allocate(preferred: string | undefined, fallback: string): string {
    let id = isBpmnId(preferred) && !this.taken.has(preferred) ? preferred : fallback;
    for (let n = 2; this.taken.has(id); n++) id = `${fallback}_${n}`;
    this.taken.add(id);
    return id;
  }
}
