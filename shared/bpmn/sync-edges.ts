/**
 * Brings the model's task-to-task sequence flows in line with the repository's edges: reconnects and
 * re-ends the ones the file has, creates the others. Flows the repository no longer has are removed
 * beforehand (write-bpmn.ts).
 */
import { bpmnIdOf } from './bpmn-ids.ts';
import type { DiagramEdge } from './diagram.ts';
import type { FlowEntry } from './diagram-index.ts';
import { addEdge, fitEdgeEnds, planeFor } from './diagram-interchange.ts';
import { createElement } from './moddle.ts';
import { type FlowNode, listOf, type ModdleElement, type SequenceFlow } from './moddle-elements.ts';
import type { PlacedTask, WriteContext } from './write-context.ts';

/** Points one end of a flow at `task`, moving the flow from the old end's incoming/outgoing to the new's. */
function connect(flow: SequenceFlow, end: 'sourceRef' | 'targetRef', task: FlowNode): void {
  const side = end === 'sourceRef' ? 'outgoing' : 'incoming';
  const previous = flow[end];
  if (previous === task) return;
  if (previous) {
    const flows = listOf(previous, side);
    const at = flows.indexOf(flow);
    if (at >= 0) flows.splice(at, 1);
  }
  flow[end] = task;
  const flows = listOf<SequenceFlow>(task, side);
  if (!flows.includes(flow)) flows.push(flow);
}

function updateFlow(
  context: WriteContext,
  flow: SequenceFlow,
  edge: DiagramEdge,
  ends: [PlacedTask, PlacedTask],
) {
  connect(flow, 'sourceRef', ends[0].element);
  connect(flow, 'targetRef', ends[1].element);
  // A flow the file did not draw stays undrawn: its ports were only ever the centres of its tasks.
  const drawn = context.index.edges.get(flow);
  if (drawn) fitEdgeEnds(drawn, edge.sourcePortPoint, edge.targetPortPoint);
}

/**
 * A new flow lives in its source task's process. The repository knows no pools, so an edge between tasks
 * of two pools becomes a sequence flow too, though BPMN would draw a message flow there.
 */
function createFlow(
  context: WriteContext,
  edge: DiagramEdge,
  [source, target]: [PlacedTask, PlacedTask],
): void {
  const flow = createElement<SequenceFlow>('bpmn:SequenceFlow', {
    id: context.ids.allocate(edge.bpmnElementId, bpmnIdOf('Flow', edge.edgeId)),
  });
  flow.$parent = source.process;
  listOf<ModdleElement>(source.process, 'flowElements').push(flow);
  connect(flow, 'sourceRef', source.element);
  connect(flow, 'targetRef', target.element);
  const plane =
    (source.shape && context.index.planeOf.get(source.shape)) ?? planeFor(context, source.process);
  addEdge(context, plane, flow, edge.sourcePortPoint, edge.targetPortPoint);
}

/**
 * Updates or creates the flow of each edge (`matches` says which template flow each edge is). An edge
 * whose ends are not both among the placed tasks is left out: a sequence flow cannot exist without them.
 */
export function syncEdges(
  context: WriteContext,
  edges: DiagramEdge[],
  placed: Map<string, PlacedTask>,
  matches: Map<DiagramEdge, FlowEntry>,
): void {
  for (const edge of edges) {
    const source = placed.get(edge.sourceNodeId);
    const target = placed.get(edge.targetNodeId);
    if (!source || !target) continue;
    const entry = matches.get(edge);
    if (entry) updateFlow(context, entry.flow, edge, [source, target]);
    else createFlow(context, edge, [source, target]);
  }
}
