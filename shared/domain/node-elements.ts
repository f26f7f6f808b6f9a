/**
 * The fuller views of a node: `detail=true` on retrieve (what an update sends back), and the per-type
 * retrieve of spec §4.4. Both add the fields of the node's own kind; the reference documents every kind's.
 */

import * as z from 'zod/mini';
import {
  type BaseElement,
  baseElementSchema,
  type Node,
  nameElement,
  nameElementSchema,
  toBaseElement,
} from './node.ts';
import { KINDS, kindOf, nodeTypeDefinition } from './node-types.ts';
import { relationSummarySchema } from './relations.ts';
import { named, nullableString } from './schema-parts.ts';

/** Every kind's view fields, optional: a node shows its own kind's. */
export const kindViewShape = Object.assign({}, ...KINDS.map((kind) => kind.viewShape)) as Record<
  string,
  z.ZodMiniType
>;
const childElementSchemas = {
  base: baseElementSchema,
  withFields: z.strictObject({ ...baseElementSchema.shape, ...kindViewShape }),
  name: nameElementSchema,
};
/** Every kind's child lists (a process's tasks), optional: a per-type retrieve shows its own kind's. */
export const childListShape = Object.fromEntries(
  KINDS.flatMap((kind) => kind.childLists).map((list) => [
    list.field,
    z.optional(z.array(childElementSchemas[list.element])),
  ]),
);

/** `detail=true`: the parent and description, and the fields of the node's own kind. */
export const detailedElementSchema = z.strictObject({
  ...baseElementSchema.shape,
  parent: z.nullable(z.strictObject({ nodeId: z.string() })),
  richTextDescription: nullableString,
  ...kindViewShape,
});
export type DetailedElement = BaseElement & {
  parent: { nodeId: string } | null;
  richTextDescription: string | null;
};

/** What retrieve answers: the node, or with `detail=true` the detailed node. */
export const retrievedNodeSchema = named(
  z.union([baseElementSchema, detailedElementSchema]),
  'RetrievedNode',
);
export const deletedNodesSchema = named(z.array(baseElementSchema), 'DeletedNodes');

/** Per-type retrieve: the node fields with the object's own @type, its parent, and its kind's own fields. */
export const typedElementSchema = named(
  z.strictObject({
    ...z.omit(baseElementSchema, { '@type': true }).shape,
    '@type': z.string(),
    parent: z.nullable(nameElementSchema),
    richTextDescription: nullableString,
    ...kindViewShape,
    ...childListShape,
    /** The object's relation counts and the caller's responsibilities on it. */
    relationSummary: relationSummarySchema,
  }),
  'TypedElement',
);
export type TypedElement = Omit<BaseElement, '@type'> & { '@type': string } & Record<string, unknown>;

function childElement(child: Node, element: 'base' | 'withFields' | 'name') {
  if (element === 'name') return nameElement(child);
  if (element === 'base') return toBaseElement(child);
  return { ...toBaseElement(child), ...kindOf(child.nodeType).view(child.fields) };
}

/** `parentVisible`: whether the caller may read the parent; one they may not is null, as in every view. */
export function toDetailedElement(node: Node, parentVisible: boolean): DetailedElement {
  return {
    ...toBaseElement(node),
    parent: node.parentId && parentVisible ? { nodeId: node.parentId } : null,
    richTextDescription: node.richTextDescription,
    ...kindOf(node.nodeType).view(node.fields),
  };
}

/**
 * The per-type view of `node`; `children` holds the live children of each of its kind's child lists,
 * by field (a process's tasks), in the order to show them.
 */
export function toTypedElement(
  node: Node,
  parent: Pick<Node, 'name' | 'nodeType' | 'nodeId'> | null,
  children: Record<string, Node[]>,
  extra: Record<string, unknown> = {},
): TypedElement {
  const kind = kindOf(node.nodeType);
  const lists = Object.fromEntries(
    kind.childLists.map((list) => [
      list.field,
      (children[list.field] ?? []).map((child) => childElement(child, list.element)),
    ]),
  );
  return {
    ...toBaseElement(node),
    '@type': nodeTypeDefinition(node.nodeType)?.payloadType ?? 'BaseElement',
    parent: parent ? nameElement(parent) : null,
    richTextDescription: node.richTextDescription,
    ...kind.view(node.fields),
    ...lists,
    ...extra,
  };
}
