/**
 * A node (object) of the library and the pure rules that change it: versions, timestamps, the
 * `BaseElement` representation of spec §2.1. No I/O here.
 */
import { randomUUID } from 'node:crypto';

export type NodeStatus = 'IN_PROGRESS' | 'PUBLISHED';
export type DocumentType = 'URL' | 'FILE';

export interface FileInfo {
  uploadIdentifier: string;
  name: string;
}

/** The stored working copy (or published copy) of a node. */
export interface Node {
  nodeId: string;
  nodeVersionId: string;
  nodeType: string;
  name: string;
  version: string;
  creationDate: string;
  modificationDate: string;
  nodeStatus: NodeStatus;
  publishedNodeVersionId: string | null;
  nodeSubType: string | null;
  nodeSubTypeName: string | null;
  userNodeSubType: string | null;
  extensions: Record<string, unknown> | null;
  deleted: boolean;
  system: boolean;
  locked: boolean;
  referenceNumber: string | null;
  /** null for environments (they sit under the library itself). */
  parentId: string | null;
  /** The environment the node belongs to (its own id for an environment). */
  environmentId: string;
  /** Every node above this one, the environment first and the parent last ([] for an environment). */
  ancestorIds: string[];
  richTextDescription: string | null;
  documentType: DocumentType | null;
  url: string | null;
  fileInfo: FileInfo | null;
  createdBy: string;
  modifiedBy: string;
  modifiedByName: string | null;
  /** Environments only: nodeId of each system root, by its nodeType. */
  systemRootIds?: Record<string, string>;
}

/** The fields of a stored node that spec §2.1 shows. */
export const BASE_ELEMENT_FIELDS = [
  'nodeId',
  'nodeVersionId',
  'nodeType',
  'name',
  'version',
  'creationDate',
  'modificationDate',
  'nodeStatus',
  'publishedNodeVersionId',
  'nodeSubType',
  'nodeSubTypeName',
  'userNodeSubType',
  'extensions',
  'deleted',
  'system',
  'locked',
  'referenceNumber',
] as const satisfies readonly (keyof Node)[];

/** Spec §2.1 node, as create, retrieve, update and delete answer it. */
export type BaseElement = { '@type': 'BaseElement'; favorite: boolean; editId?: string } & Pick<
  Node,
  (typeof BASE_ELEMENT_FIELDS)[number]
>;

/** `detail=true` adds what a client needs to send the object back in an update. */
export type DetailedElement = BaseElement & {
  parent: { nodeId: string } | null;
  richTextDescription: string | null;
  documentType?: DocumentType | null;
  url?: string | null;
  fileInfo?: FileInfo | null;
  /** Environments: where each facet keeps its items (nodeType of the root → nodeId). */
  systemRoots?: Record<string, string>;
};

/** Identifiers are upper-case UUIDs, as in the spec's examples. */
export function newId(): string {
  return randomUUID().toUpperCase();
}

/** ISO 8601 with millisecond precision and `Z`. */
export function timestamp(at: Date = new Date()): string {
  return at.toISOString();
}

export const FIRST_VERSION = '0.0001';

function parseVersion(version: string): { major: number; minor: number } {
  const match = /^(\d+)\.(\d{4})$/.exec(version);
  if (!match) throw new Error(`Stored version "${version}" is not <major>.<minor4>`);
  return { major: Number(match[1]), minor: Number(match[2]) };
}

function formatVersion(major: number, minor: number): string {
  return `${major}.${String(minor).padStart(4, '0')}`;
}

/** Each successful write moves the minor part up by one (`0.0001` → `0.0002`, `1.0000` → `1.0001`). */
export function nextMinorVersion(version: string): string {
  const { major, minor } = parseVersion(version);
  if (minor >= 9999) throw new Error(`Version ${version} has no further minor version`);
  return formatVersion(major, minor + 1);
}

/** Publishing moves to the next major version (`0.0007` → `1.0000`). */
export function nextMajorVersion(version: string): string {
  return formatVersion(parseVersion(version).major + 1, 0);
}

/** The weak validator of a node: its version id. */
export function etagOf(node: Pick<Node, 'nodeVersionId'>): string {
  return `W/"${node.nodeVersionId}"`;
}

export function toBaseElement(node: Node): BaseElement {
  const fields = Object.fromEntries(BASE_ELEMENT_FIELDS.map((field) => [field, node[field]]));
  return {
    '@type': 'BaseElement',
    ...(fields as Pick<Node, (typeof BASE_ELEMENT_FIELDS)[number]>),
    // Favourites are per user and arrive with the favourites feature; no node is anyone's yet.
    favorite: false,
  };
}

export function toDetailedElement(node: Node): DetailedElement {
  const detailed: DetailedElement = {
    ...toBaseElement(node),
    parent: node.parentId ? { nodeId: node.parentId } : null,
    richTextDescription: node.richTextDescription,
  };
  if (node.nodeType === 'DOCUMENT') {
    detailed.documentType = node.documentType;
    detailed.url = node.url;
    detailed.fileInfo = node.fileInfo;
  }
  if (node.systemRootIds) detailed.systemRoots = node.systemRootIds;
  return detailed;
}
