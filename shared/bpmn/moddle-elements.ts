/**
 * Narrow views of the bpmn-moddle elements this code reads and writes. moddle's elements are loosely typed
 * records; these interfaces name only the properties used here, and are applied once, where an element
 * comes out of the library (moddle.ts).
 */

export interface PropertyDescriptor {
  name: string;
  isMany?: boolean;
  isReference?: boolean;
  isVirtual?: boolean;
}

export interface ElementDescriptor {
  /** Absent on generic elements (vendor extensions the meta-model does not know). */
  properties?: PropertyDescriptor[];
}

export interface ModdleElement {
  readonly $type: string;
  readonly $descriptor: ElementDescriptor;
  /** Attributes outside the meta-model (vendor extensions, namespace declarations), kept for output. */
  readonly $attrs?: Record<string, string>;
  $parent?: ModdleElement;
  $instanceOf(type: string): boolean;
  id?: string;
  name?: string;
}

export interface Definitions extends ModdleElement {
  imports?: ModdleElement[];
  rootElements?: ModdleElement[];
  diagrams?: Diagram[];
}

export interface Process extends ModdleElement {
  flowElements?: ModdleElement[];
}

export interface FlowNode extends ModdleElement {
  incoming?: SequenceFlow[];
  outgoing?: SequenceFlow[];
}

export interface SequenceFlow extends ModdleElement {
  sourceRef?: ModdleElement;
  targetRef?: ModdleElement;
}

export interface Collaboration extends ModdleElement {
  participants?: Participant[];
}

export interface Participant extends ModdleElement {
  processRef?: ModdleElement;
}

export interface Diagram extends ModdleElement {
  plane?: Plane;
}

export interface Plane extends ModdleElement {
  bpmnElement?: ModdleElement;
  planeElement?: ModdleElement[];
}

export interface Bounds extends ModdleElement {
  x?: number;
  y?: number;
  width?: number;
  height?: number;
}

export interface Waypoint extends ModdleElement {
  x?: number;
  y?: number;
}

/** Where a shape's or an edge's label is drawn. */
export interface Label extends ModdleElement {
  bounds?: Bounds;
}

export interface Shape extends ModdleElement {
  bpmnElement?: ModdleElement;
  bounds?: Bounds;
  label?: Label;
}

export interface Edge extends ModdleElement {
  bpmnElement?: ModdleElement;
  waypoint?: Waypoint[];
  label?: Label;
}

/** Whether a value met while walking properties is a moddle element (not a string, number or plain object). */
export function isModdleElement(value: unknown): value is ModdleElement {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { $instanceOf?: unknown }).$instanceOf === 'function' &&
    typeof (value as { $type?: unknown }).$type === 'string'
  );
}

/** Reads a property by the name its descriptor gives: the generic walks do not know the element's type. */
export function propertyOf(element: ModdleElement, name: string): unknown {
  return (element as unknown as Record<string, unknown>)[name];
}

export function setPropertyOf(element: ModdleElement, name: string, value: unknown): void {
  (element as unknown as Record<string, unknown>)[name] = value;
}

/** Unsets a property: the writer would print `undefined` for a property merely set to it. */
export function deletePropertyOf(element: ModdleElement, name: string): void {
  delete (element as unknown as Record<string, unknown>)[name];
}

/** A many-valued property as a live array, created on first use (parsed elements omit empty ones). */
export function listOf<T extends ModdleElement>(element: ModdleElement, name: string): T[] {
  const value = propertyOf(element, name);
  if (Array.isArray(value)) return value as T[];
  const list: T[] = [];
  setPropertyOf(element, name, list);
  return list;
}
