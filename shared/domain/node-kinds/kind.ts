/**
 * What a node type has of its own, beyond the fields every node has: its fields (in payloads, stored,
 * shown), their rules, and the children its per-type retrieve lists. A type with nothing of its own is
 * PLAIN. The catalogue (node-types.ts) gives every nodeType its kind; shared code dispatches on it.
 */
import * as z from 'zod/mini';
import type { FieldError } from '../errors.ts';

export { bodyError as fieldError } from '../errors.ts';

type Shape = Record<string, z.ZodMiniType>;

/** Children of one type a per-type retrieve lists under a field of its own (a process's tasks). */
export interface ChildList {
  field: string;
  nodeType: string;
  /** Each child as a BaseElement, as a BaseElement with its own kind's fields, or as a NameElement. */
  element: 'base' | 'withFields' | 'name';
}

export interface NodeKind {
  /** Names of the kind's own fields: they are attributes of the node's item, beside the common ones. */
  readonly fieldNames: readonly string[];
  /** How create and update payloads send the fields (all optional there; `check` says what is required). */
  readonly payloadShape: Shape;
  /** How the detailed and per-type views show the fields. */
  readonly viewShape: Shape;
  readonly childLists: readonly ChildList[];
  /** Fields that are not the object's content (they go with its diagram): a version restore keeps them. */
  readonly keptOnRestore: readonly string[];
  /** The kind's fields of a stored item (or of a node): absent ones get their defaults. */
  read(source: Record<string, unknown>): Record<string, unknown>;
  /** The fields after a create or update: sent ones replace, left-out ones keep `current`'s values. */
  merge(
    payload: Record<string, unknown>,
    current: Record<string, unknown> | undefined,
  ): Record<string, unknown>;
  /** Rules across the fields, checked on every create and update. */
  check(fields: Record<string, unknown>): FieldError[];
  /** The fields as the detailed and per-type views show them. */
  view(fields: Record<string, unknown>): Record<string, unknown>;
}

export interface KindSpec<S extends z.ZodMiniObject> {
  /** The stored fields, with their defaults. */
  stored: S;
  payloadShape?: Shape;
  viewShape?: Shape;
  childLists?: ChildList[];
  keptOnRestore?: (keyof z.output<S> & string)[];
  check?: (fields: z.output<S>) => FieldError[];
  view?: (fields: z.output<S>) => Record<string, unknown>;
}

/** A kind from its stored fields' schema; the rules and views receive the fields parsed by it. */
export function defineKind<S extends z.ZodMiniObject>(spec: KindSpec<S>): NodeKind {
  const read = (source: Record<string, unknown>) => spec.stored.parse(source) as z.output<S>;
  const fieldNames = Object.keys(spec.stored.shape);
  const payloadNames = Object.keys(spec.payloadShape ?? {});
  return {
    fieldNames,
    payloadShape: spec.payloadShape ?? {},
    viewShape: spec.viewShape ?? {},
    childLists: spec.childLists ?? [],
    keptOnRestore: spec.keptOnRestore ?? [],
    read,
    // Only what a payload may set: a field the views show but the service sets (a task's bpmnKind) is
    // sent back as retrieved and ignored, never taken.
    merge: (payload, current) =>
      read({
        ...current,
        ...Object.fromEntries(
          payloadNames.flatMap((name) => (payload[name] === undefined ? [] : [[name, payload[name]]])),
        ),
      }),
    check: (fields) => spec.check?.(read(fields)) ?? [],
    view: (fields) => spec.view?.(read(fields)) ?? {},
  };
}

/** A type with nothing of its own. */
export const PLAIN = defineKind({ stored: z.object({}) });
