/**
 * Which BPMN elements are tasks of the repository: the concrete task types of BPMN 2.0. Sub-processes, call
 * activities and everything else stay BPMN-only, kept in the template.
 */
import { BPMN_TASK_KINDS } from '#shared/domain/node-kinds/task.ts';
import { isBlankName, withoutControlCharacters } from '#shared/domain/schema-parts.ts';
import { toWellFormedText } from '#shared/domain/well-formed-text.ts';
import type { ModdleElement } from './moddle-elements.ts';

export const TASK_TYPES: readonly string[] = BPMN_TASK_KINDS;

export const DEFAULT_TASK_TYPE = 'bpmn:Task';

export function isTaskType(type: string | undefined): type is string {
  return type !== undefined && TASK_TYPES.includes(type);
}

/**
 * A name of the file as the API takes names: control characters made spaces, and a lone surrogate (a
 * reference such as `&#xD83D;`, half a character) made U+FFFD.
 */
export const keepableName = (name: string): string => toWellFormedText(withoutControlCharacters(name));

/**
 * The name a task is imported under: its keepable name, trimmed; an unnamed task (or one named only with
 * invisible marks, which the API takes for blank) still needs a readable name, so it gets its id.
 */
export function importedTaskName(element: ModdleElement): string {
  const kept = keepableName(element.name ?? '').trim();
  return isBlankName(kept) ? element.id || '' : kept;
}
