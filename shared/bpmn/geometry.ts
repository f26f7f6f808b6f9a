/**
 * Whole-pixel geometry. The repository keeps integers; BPMN files from other tools carry fractions, which
 * are compared after rounding so an unchanged position never rewrites the file's own values.
 */
import type { Point } from './diagram.ts';
import type { Bounds, Waypoint } from './moddle-elements.ts';

export interface Box {
  topLeftX: number;
  topLeftY: number;
  width: number;
  height: number;
}

/** Where a task without a shape is placed, and how large. */
export const SHAPELESS_BOX: Readonly<Box> = { topLeftX: 0, topLeftY: 0, width: 100, height: 80 };

/** Math.round, minus its negative zero (which would compare unequal to 0 in deep equality). */
export function toInteger(value: number | undefined): number {
  return Math.round(value ?? 0) + 0;
}

export function boxOf(bounds: Bounds): Box {
  return {
    topLeftX: toInteger(bounds.x),
    topLeftY: toInteger(bounds.y),
    width: toInteger(bounds.width),
    height: toInteger(bounds.height),
  };
}

export function pointOf(waypoint: Waypoint): Point {
  return { x: toInteger(waypoint.x), y: toInteger(waypoint.y) };
}

export function centreOf(box: Box): Point {
  return { x: toInteger(box.topLeftX + box.width / 2), y: toInteger(box.topLeftY + box.height / 2) };
}

export function sameBox(a: Box, b: Box): boolean {
  return (
    a.topLeftX === b.topLeftX && a.topLeftY === b.topLeftY && a.width === b.width && a.height === b.height
  );
}

export function samePoint(a: Point, b: Point): boolean {
  return a.x === b.x && a.y === b.y;
}
