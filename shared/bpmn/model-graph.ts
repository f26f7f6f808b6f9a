/**
 * Generic walks over a moddle model, driven by the meta-model's property descriptors rather than by a list
 * of BPMN types: whatever a file contains (sub-processes, lanes, message flows, vendor extensions), every
 * element is visited and every reference to a removed or replaced element is found.
 */
import {
  deletePropertyOf,
  isModdleElement,
  type ModdleElement,
  type PropertyDescriptor,
  propertyOf,
  setPropertyOf,
} from './moddle-elements.ts';

function ownedProperties(element: ModdleElement): PropertyDescriptor[] {
  return (element.$descriptor.properties ?? []).filter((p) => !p.isVirtual);
}

function childrenOf(element: ModdleElement): ModdleElement[] {
  const children: ModdleElement[] = [];
  for (const property of ownedProperties(element)) {
    if (property.isReference) continue;
    const value = propertyOf(element, property.name);
    for (const item of Array.isArray(value) ? value : [value]) {
      if (isModdleElement(item)) children.push(item);
    }
  }
  return children;
}

/** `root` and everything it contains, in document order (parents before children). */
export function containedElements(root: ModdleElement): ModdleElement[] {
  const found: ModdleElement[] = [];
  const visit = (element: ModdleElement) => {
    found.push(element);
    for (const child of childrenOf(element)) visit(child);
  };
  visit(root);
  return found;
}

/** Calls `update` with each value of each reference property; a different answer replaces the value. */
function rewriteReferences(
  elements: ModdleElement[],
  update: (referenced: ModdleElement) => ModdleElement | undefined,
): void {
  for (const element of elements) {
    for (const property of ownedProperties(element)) {
      if (!property.isReference) continue;
      const value = propertyOf(element, property.name);
      if (Array.isArray(value)) {
        // In place: moddle hands out the same array to everyone who asked for the property.
        const kept = value.flatMap((item) => (isModdleElement(item) ? (update(item) ?? []) : [item]));
        value.splice(0, value.length, ...kept);
      } else if (isModdleElement(value)) {
        const updated = update(value);
        if (updated === undefined) deletePropertyOf(element, property.name);
        else if (updated !== value) setPropertyOf(element, property.name, updated);
      }
    }
  }
}

/** Takes `element` out of whichever property of its container holds it. */
function detach(container: ModdleElement, element: ModdleElement): void {
  for (const property of ownedProperties(container)) {
    if (property.isReference) continue;
    const value = propertyOf(container, property.name);
    if (Array.isArray(value)) {
      const at = value.indexOf(element);
      if (at >= 0) value.splice(at, 1);
    } else if (value === element) {
      deletePropertyOf(container, property.name);
    }
  }
}

// An element cannot outlive what these single references name: a flow needs both ends, a boundary event
// its activity, a shape or edge the element it draws.
const REQUIRED_REFERENCES = ['sourceRef', 'targetRef', 'attachedToRef', 'bpmnElement'];

function dependsOn(element: ModdleElement, removed: Set<ModdleElement>): boolean {
  return REQUIRED_REFERENCES.some((name) => {
    const value = propertyOf(element, name);
    return isModdleElement(value) && removed.has(value);
  });
}

/**
 * Removes `doomed` from the model with everything that cannot exist without them (flows touching them,
 * boundary events on them, the shapes and edges drawing any of these, and so on until nothing else
 * depends on a removed element), then drops every remaining reference to a removed element (lanes'
 * flowNodeRef, incoming/outgoing, a gateway's default flow...). Returns everything removed.
 */
export function removeElements(root: ModdleElement, doomed: Iterable<ModdleElement>): Set<ModdleElement> {
  const removed = new Set(doomed);
  let all = containedElements(root);
  const parentOf = new Map<ModdleElement, ModdleElement>();
  for (const element of all) for (const child of childrenOf(element)) parentOf.set(child, element);
  let grown = true;
  while (grown) {
    grown = false;
    for (const element of all) {
      if (removed.has(element)) continue;
      const parent = parentOf.get(element);
      if ((parent && removed.has(parent)) || dependsOn(element, removed)) {
        removed.add(element);
        grown = true;
      }
    }
  }
  for (const element of removed) {
    const parent = parentOf.get(element);
    if (parent && !removed.has(parent)) detach(parent, element);
  }
  all = all.filter((element) => !removed.has(element));
  rewriteReferences(all, (referenced) => (removed.has(referenced) ? undefined : referenced));
  return removed;
}

/**
 * Puts `replacement` where `original` was: same place in its container, every reference to it redirected,
 * and every property the replacement's type also has carried over (id, name, incoming, outgoing,
 * documentation, extensions...). Properties only the original's type has are dropped: they mean nothing
 * for the new type.
 */
export function replaceElement(
  root: ModdleElement,
  original: ModdleElement,
  replacement: ModdleElement,
): void {
  for (const property of ownedProperties(replacement)) {
    if (Object.hasOwn(original, property.name)) {
      setPropertyOf(replacement, property.name, propertyOf(original, property.name));
    }
  }
  Object.assign(replacement.$attrs ?? {}, original.$attrs);
  replacement.$parent = original.$parent;
  for (const child of childrenOf(replacement)) child.$parent = replacement;
  for (const element of containedElements(root)) {
    for (const property of ownedProperties(element)) {
      if (property.isReference) continue;
      const value = propertyOf(element, property.name);
      if (Array.isArray(value)) {
        const at = value.indexOf(original);
        if (at >= 0) value[at] = replacement;
      } else if (value === original) {
        setPropertyOf(element, property.name, replacement);
      }
    }
  }
  rewriteReferences(containedElements(root), (referenced) =>
    referenced === original ? replacement : referenced,
  );
}
