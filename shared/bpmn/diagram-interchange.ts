/**
 * The diagram interchange (BPMNDI) an export writes: shapes and edges for what it creates, and the smallest
 * change to those it keeps. Values are only rewritten where the repository's integer differs from the
 * rounded value of the file, so fractional geometry from other tools survives an unchanged round trip.
 */
import type { Point } from './diagram.ts';
import { planeShowing } from './diagram-index.ts';
import { type Box, pointOf, samePoint, toInteger } from './geometry.ts';
import { createElement } from './moddle.ts';
import {
  type Bounds,
  type Collaboration,
  type Diagram,
  type Edge,
  listOf,
  type ModdleElement,
  type Plane,
  type Process,
  type Shape,
  type Waypoint,
} from './moddle-elements.ts';
import type { WriteContext } from './write-context.ts';

function boundsOf(box: Box): Bounds {
  return createElement<Bounds>('dc:Bounds', {
    x: box.topLeftX,
    y: box.topLeftY,
    width: box.width,
    height: box.height,
  });
}

function waypointOf(point: Point): Waypoint {
  return createElement<Waypoint>('dc:Point', { x: point.x, y: point.y });
}

/** A new diagram drawing the process (or the collaboration it is a pool of), for a file that has none. */
function addDiagram(context: WriteContext, process: Process): Plane {
  const { definitions, index, ids } = context;
  const collaboration = (definitions.rootElements ?? []).find(
    (root): root is Collaboration =>
      root.$instanceOf('bpmn:Collaboration') &&
      ((root as Collaboration).participants ?? []).some((p) => p.processRef === process),
  );
  const shown = collaboration ?? process;
  const plane = createElement<Plane>('bpmndi:BPMNPlane', {
    id: ids.allocate(undefined, `BPMNPlane_${shown.id ?? 'process'}`),
    bpmnElement: shown,
  });
  const diagram = createElement<Diagram>('bpmndi:BPMNDiagram', {
    id: ids.allocate(undefined, `BPMNDiagram_${shown.id ?? 'process'}`),
    plane,
  });
  plane.$parent = diagram;
  diagram.$parent = definitions;
  listOf<Diagram>(definitions, 'diagrams').push(diagram);
  index.planes.push(plane);
  return plane;
}

export function planeFor(context: WriteContext, process: Process): Plane {
  return planeShowing(process, context.index) ?? addDiagram(context, process);
}

function draw(context: WriteContext, plane: Plane, drawn: Shape | Edge): void {
  drawn.$parent = plane;
  listOf(plane, 'planeElement').push(drawn);
  context.index.planeOf.set(drawn, plane);
}

export function addShape(context: WriteContext, plane: Plane, element: ModdleElement, box: Box): Shape {
  const shape = createElement<Shape>('bpmndi:BPMNShape', {
    id: context.ids.allocate(`${element.id}_di`, 'BPMNShape'),
    bpmnElement: element,
    bounds: boundsOf(box),
  });
  draw(context, plane, shape);
  context.index.shapes.set(element, shape);
  return shape;
}

export function addEdge(
  context: WriteContext,
  plane: Plane,
  flow: ModdleElement,
  from: Point,
  to: Point,
): Edge {
  const edge = createElement<Edge>('bpmndi:BPMNEdge', {
    id: context.ids.allocate(`${flow.id}_di`, 'BPMNEdge'),
    bpmnElement: flow,
    waypoint: [waypointOf(from), waypointOf(to)],
  });
  draw(context, plane, edge);
  context.index.edges.set(flow, edge);
  return edge;
}

/** Moves and resizes a shape, touching only the values that differ once rounded. */
export function fitShape(shape: Shape, box: Box): void {
  if (!shape.bounds) {
    shape.bounds = boundsOf(box);
    return;
  }
  const bounds = shape.bounds;
  if (toInteger(bounds.x) !== box.topLeftX) bounds.x = box.topLeftX;
  if (toInteger(bounds.y) !== box.topLeftY) bounds.y = box.topLeftY;
  if (toInteger(bounds.width) !== box.width) bounds.width = box.width;
  if (toInteger(bounds.height) !== box.height) bounds.height = box.height;
}

/** Sets an edge's ends to the ports, keeping its bends; an edge too short to have two ends is redrawn. */
export function fitEdgeEnds(edge: Edge, from: Point, to: Point): void {
  const waypoints = listOf<Waypoint>(edge, 'waypoint');
  const first = waypoints[0];
  const last = waypoints[waypoints.length - 1];
  if (waypoints.length < 2 || !first || !last) {
    waypoints.splice(0, waypoints.length, waypointOf(from), waypointOf(to));
    return;
  }
  for (const [waypoint, port] of [
    [first, from],
    [last, to],
  ] as const) {
    if (!samePoint(pointOf(waypoint), port)) {
      waypoint.x = port.x;
      waypoint.y = port.y;
    }
  }
}
