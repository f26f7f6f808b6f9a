/**
 * An edge's ends follow its tasks: when a task moves or is resized, the port points of its edges keep their
 * place on the task's outline (the same share of its width and height from its top left corner), so the
 * diagram and its BPMN export keep the flows attached to the shape.
 */
import { COORDINATE_RANGE, type TaskFields } from './node-kinds/task.ts';
import type { StoredEdge } from './process-diagram.ts';

type Box = Pick<TaskFields, 'topLeftX' | 'topLeftY' | 'width' | 'height'>;
type Point = { x: number; y: number };

export type MovedPorts = Partial<Pick<StoredEdge, 'sourcePortPoint' | 'targetPortPoint'>>;

export const sameBox = (a: Box, b: Box) =>
  a.topLeftX === b.topLeftX && a.topLeftY === b.topLeftY && a.width === b.width && a.height === b.height;

const within = (value: number) => Math.min(COORDINATE_RANGE.max, Math.max(COORDINATE_RANGE.min, value));

/** Where a point on `before` is on `after`. */
function carried(point: Point, before: Box, after: Box): Point {
  return {
    x: within(after.topLeftX + Math.round(((point.x - before.topLeftX) * after.width) / before.width)),
    y: within(after.topLeftY + Math.round(((point.y - before.topLeftY) * after.height) / before.height)),
  };
}

/** The ports of `edge` that end on task `taskId`, carried from its box `before` to `after` (none: untouched). */
export function portsCarried(edge: StoredEdge, taskId: string, before: Box, after: Box): MovedPorts | null {
  const ports: MovedPorts = {
    ...(edge.sourceNodeId === taskId
      ? { sourcePortPoint: carried(edge.sourcePortPoint, before, after) }
      : {}),
    ...(edge.targetNodeId === taskId
      ? { targetPortPoint: carried(edge.targetPortPoint, before, after) }
      : {}),
  };
  return Object.keys(ports).length > 0 ? ports : null;
}
