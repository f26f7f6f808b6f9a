/**
 * Which BPMN elements are tasks of the repository: the concrete task types of BPMN 2.0. Sub-processes, call
 * activities and everything else stay BPMN-only, kept in the template.
 */
import { BPMN_TASK_KINDS } from '#shared/domain/node-kinds/task.ts';
import { withoutControlCharacters } from '#shared/domain/schema-parts.ts';
import type { ModdleElement } from './moddle-elements.ts';

export const TASK_TYPES: readonly string[] = BPMN_TASK_KINDS;

export const DEFAULT_TASK_TYPE = 'bpmn:Task';

export function isTaskType(type: string | undefined): type is string {
  return type !== undefined && TASK_TYPES.includes(type);
}

/**
 * The name a task is imported under: its name with control characters made spaces (names obey the API's
 * rules), trimmed; an unnamed task still needs a readable name, so it gets its id.
 */
export function importedTaskName(element: ModdleElement): string {
  return withoutControlCharacters(element.name ?? '').trim() || element.id || '';
}
