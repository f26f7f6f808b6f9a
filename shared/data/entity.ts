/**
 * A stored entity described once: its name (the `entity` attribute of its items), the schema of what its
 * items hold besides their keys, and how a value's keys (and index keys) are made. Items are mapped to and
 * from domain values through the schema, never by casting: reading parses the item (dropping keys and
 * other item-only attributes), so a corrupt item fails loudly instead of travelling on.
 */
import type * as z from 'zod/mini';

export type Item = Record<string, unknown>;

export interface EntitySpec<S extends z.ZodMiniObject, A extends unknown[]> {
  name: string;
  schema: S;
  /** Key and index attributes of a value (more arguments, such as which copy of a node, as needed). */
  keys: (value: z.output<S>, ...args: A) => Item;
  /** Attributes as stored, when they are not the value's own (a node's kind fields are flattened). */
  store?: (value: z.output<S>) => Item;
  /** The reverse of `store`, before the schema parses the item. */
  load?: (item: Item) => Item;
}

export interface Entity<T, A extends unknown[] = []> {
  name: string;
  toItem(value: T, ...args: A): Item;
  fromItem(item: Item): T;
}

export function defineEntity<S extends z.ZodMiniObject, A extends unknown[] = []>(
  spec: EntitySpec<S, A>,
): Entity<z.output<S>, A> {
  return {
    name: spec.name,
    toItem: (value, ...args) => ({
      ...spec.keys(value, ...args),
      entity: spec.name,
      ...(spec.store?.(value) ?? value),
    }),
    fromItem: (item) => spec.schema.parse(spec.load ? spec.load(item) : item),
  };
}
