/** What the steps of an export share: the model being rewritten, what it contains, and its free ids. */
import type { IdAllocator } from './bpmn-ids.ts';
import type { DiagramIndex } from './diagram-index.ts';
import type { Definitions, FlowNode, Process, Shape } from './moddle-elements.ts';

export interface WriteContext {
  definitions: Definitions;
  /** Built before the export changed anything; helpers that add shapes and planes keep it current. */
  index: DiagramIndex;
  ids: IdAllocator;
}

/** Where a repository task ended up in the model. */
export interface PlacedTask {
  element: FlowNode;
  process: Process;
  shape: Shape | undefined;
}
