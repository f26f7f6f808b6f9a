/**
 * Nodes as stored: each copy and version, a parent's records of its children, and the trash.
 * How items of the single table are described: ../entity.ts; which key serves which query: ../table-schema.ts.
 */
import * as z from 'zod/mini';
import type { ListedNode } from '#shared/domain/list-element.ts';
import { type Node, nodeSchema } from '#shared/domain/node.ts';
import { kindOf } from '#shared/domain/node-types.ts';
import { defineEntity } from '../entity.ts';
import {
  childLinkKey,
  type NodeCopy,
  nodeKey,
  nodeVersionKey,
  trashEntryKey,
  trashedChildKey,
} from '../keys.ts';
import { listAttributesOf } from '../list-indexes.ts';

/**
 * A node's working copy (DRAFT) or published copy. Its kind's fields are attributes of the item beside
 * the common ones. Only a live working copy carries the list attributes, so a deleted node leaves every list.
 */
export const nodes = defineEntity({
  name: 'Node',
  schema: nodeSchema,
  keys: (node: Node, copy: NodeCopy = 'DRAFT') => ({
    ...nodeKey(node.nodeId, copy),
    ...(copy === 'DRAFT' && !node.deleted ? listAttributesOf(node) : {}),
  }),
  store: ({ fields, ...node }) => ({ ...node, ...fields }),
  load: (item) => ({ ...item, fields: kindOf(String(item.nodeType)).read(item) }),
});

const makeListedNodeSchema = () =>
  z.omit(nodeSchema, {
    environmentId: true,
    ancestorIds: true,
    createdBy: true,
    modifiedBy: true,
    fields: true,
  });
/** The schema of a listed node (ListedNode), made when a list first reads one (not at every cold start). */
let listedNodeSchema: ReturnType<typeof makeListedNodeSchema> | undefined;
const listedSchema = () => (listedNodeSchema ??= makeListedNodeSchema());
let listedAttributes: readonly string[] | undefined;

/** A node's copy as lists read it: only the attributes of a ListedNode are asked for (a projection). */
export const listedNodes = {
  attributes: (): readonly string[] => (listedAttributes ??= Object.keys(listedSchema().shape)),
  fromItem: (item: Record<string, unknown>): ListedNode => listedSchema().parse(item),
};

const makeParentSchema = () =>
  z.pick(nodeSchema, {
    nodeId: true,
    name: true,
    nodeType: true,
    parentId: true,
    ancestorIds: true,
    batchId: true,
  });
let parentNodeSchema: ReturnType<typeof makeParentSchema> | undefined;
const parentSchema = () => (parentNodeSchema ??= makeParentSchema());
/** A node as a list element names it as a parent, with where it sits: whether the caller may read it. */
export type ParentNode = z.output<ReturnType<typeof makeParentSchema>>;

/** A node's copy as a list reads it as a parent (a projection of those attributes). */
export const parentNodes = {
  attributes: (): readonly string[] => Object.keys(parentSchema().shape),
  fromItem: (item: Record<string, unknown>): ParentNode => parentSchema().parse(item),
};

/** A version of a node as it was written (its version history); never in a list index. */
export const nodeVersions = defineEntity({
  name: 'NodeVersion',
  schema: nodeSchema,
  keys: (node: Node) => nodeVersionKey(node.nodeId, node.nodeVersionId),
  store: ({ fields, ...node }) => ({ ...node, ...fields }),
  load: (item) => ({ ...item, fields: kindOf(String(item.nodeType)).read(item) }),
});

/**
 * A parent's record of one live child (in the parent's partition, so it can be read consistently); a child
 * written by a batch carries its batchId, like the child itself.
 */
export const childLinks = defineEntity({
  name: 'ChildLink',
  schema: z.object({ childId: z.string(), nodeType: z.string(), batchId: z.optional(z.string()) }),
  keys: (link, parentId: string) => childLinkKey(parentId, link.childId),
});

/** A deleted subtree in the trash: its root as it was, who deleted it and when (expires: see trash-service). */
export const trashEntries = defineEntity({
  name: 'TrashEntry',
  // expiresAtEpoch is the table's TTL attribute (table-schema.ts).
  schema: z.object({
    nodeId: z.string(),
    nodeType: z.string(),
    name: z.string(),
    parentId: z.nullable(z.string()),
    environmentId: z.string(),
    ancestorIds: z.array(z.string()),
    deletedAt: z.string(),
    deletedByName: z.nullable(z.string()),
    nodes: z.number(),
    expiresAtEpoch: z.number(),
  }),
  keys: (entry) => trashEntryKey(entry.deletedAt, entry.nodeId),
});

export type TrashEntry = ReturnType<typeof trashEntries.fromItem>;

/** A child deleted with a subtree (trashedChildKey). */
export const trashedChildren = defineEntity({
  name: 'TrashedChild',
  schema: z.object({ childId: z.string(), nodeType: z.string() }),
  keys: (link, parentId: string, rootId: string) => trashedChildKey(parentId, rootId, link.childId),
});
