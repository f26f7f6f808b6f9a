/**
 * The list indexes: one GSI per list scope and sort key, so every list page is a key-ordered read that
 * stops after pageSize entries, whatever the size of the library.
 *
 * Scopes (partition attribute of the node item):
 *   parent       `lpP` = P#<parentId>           children of a node (environments: P#LIBRARY)
 *   environment  `lpE` = E#<environmentId>      everything in an environment, the environment included
 *   type         `lpT` = T#<environmentId>#<nodeType>   one nodeType in an environment
 * Sort keys (sort attribute, shared by the three scopes; unique because each ends with the nodeId):
 *   nodeId `lsI`, name `lsN` (lower case), creationDate `lsC`, modificationDate `lsM`.
 *
 * Only live working copies carry these attributes: a soft delete removes them, and the index entries go.
 * The indexes project the keys plus the few attributes list filters need, none of which an ordinary update
 * changes, so an update rewrites only the three modificationDate entries.
 */
import { shortDescriptionOf } from '#shared/domain/list-element.ts';
import type { Node } from '#shared/domain/node.ts';
import { LIBRARY_PARENT } from './keys.ts';

export const LIST_SORT_KEYS = ['nodeId', 'name', 'creationDate', 'modificationDate'] as const;
export type ListSortKey = (typeof LIST_SORT_KEYS)[number];

export const LIST_SCOPES = ['parent', 'environment', 'type'] as const;
export type ListScope = (typeof LIST_SCOPES)[number];

const SCOPE_ATTRIBUTE: Record<ListScope, string> = { parent: 'lpP', environment: 'lpE', type: 'lpT' };
const SORT_ATTRIBUTE: Record<ListSortKey, string> = {
  nodeId: 'lsI',
  name: 'lsN',
  creationDate: 'lsC',
  modificationDate: 'lsM',
};

/** Attributes every list index projects besides the keys: what index-side filters read. */
export const LIST_PROJECTED_ATTRIBUTES = [
  'nodeType',
  'nodeStatus',
  'publishedNodeVersionId',
  'lineage',
  'searchName',
  'hasDescription',
] as const;

export interface ListIndex {
  indexName: string;
  partitionKey: string;
  sortKey: string;
}

export const listIndex = (scope: ListScope, sortKey: ListSortKey): ListIndex => ({
  indexName: `${scope}-${sortKey}`,
  partitionKey: SCOPE_ATTRIBUTE[scope],
  sortKey: SORT_ATTRIBUTE[sortKey],
});

export const LIST_INDEXES: readonly ListIndex[] = LIST_SCOPES.flatMap((scope) =>
  LIST_SORT_KEYS.map((sortKey) => listIndex(scope, sortKey)),
);

/** The partition of one list scope. */
export const listPartition = {
  parent: (parentId: string | null) => `P#${parentId ?? LIBRARY_PARENT}`,
  environment: (environmentId: string) => `E#${environmentId}`,
  type: (environmentId: string, nodeType: string) => `T#${environmentId}#${nodeType}`,
};

/** Names sort case-insensitively on their first 200 characters; index keys stay far below 1 KB. */
const NAME_KEY_LENGTH = 200;
/** Below every printable character, so "Plan" sorts before "Plan B" whatever follows. */
const NAME_SEPARATOR = '\u0001';

/** A name's first 200 characters, lower-cased; never half a surrogate pair (a cursor must hold the key). */
function nameKeyOf(name: string): string {
  const lower = name.toLowerCase();
  const cut = lower.slice(0, NAME_KEY_LENGTH);
  const last = cut.charCodeAt(cut.length - 1);
  return last >= 0xd800 && last <= 0xdbff && lower.length > NAME_KEY_LENGTH ? cut.slice(0, -1) : cut;
}

/** The sort value of a node under one sort key, as stored in the index (and carried by cursors). */
export function sortValueOf(node: Node, sortKey: ListSortKey): string {
  switch (sortKey) {
    case 'nodeId':
      return node.nodeId;
    case 'name':
      return `${nameKeyOf(node.name)}${NAME_SEPARATOR}${node.nodeId}`;
    case 'creationDate':
      return `${node.creationDate}#${node.nodeId}`;
    case 'modificationDate':
      return `${node.modificationDate}#${node.nodeId}`;
  }
}

/** The list attributes of a live working copy. */
export function listAttributesOf(node: Node): Record<string, string | boolean | string[]> {
  return {
    [SCOPE_ATTRIBUTE.parent]: listPartition.parent(node.parentId),
    [SCOPE_ATTRIBUTE.environment]: listPartition.environment(node.environmentId),
    [SCOPE_ATTRIBUTE.type]: listPartition.type(node.environmentId, node.nodeType),
    ...Object.fromEntries(LIST_SORT_KEYS.map((key) => [SORT_ATTRIBUTE[key], sortValueOf(node, key)])),
    // The node and every node above it: a reader of a folder sees the entries whose lineage holds it.
    lineage: [...(node.ancestorIds ?? []), node.nodeId],
    searchName: node.name.toLowerCase(),
    hasDescription: shortDescriptionOf(node.richTextDescription) !== null,
  };
}

/** Every attribute listAttributesOf writes, to strip them when reading items back. */
export const LIST_ATTRIBUTE_NAMES = [
  ...Object.values(SCOPE_ATTRIBUTE),
  ...Object.values(SORT_ATTRIBUTE),
  'lineage',
  'searchName',
  'hasDescription',
];
