/**
 * A node (object) of the library and the pure rules that change it: versions, timestamps, the
 * `BaseElement` representation of spec §2.1. No I/O here.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import * as z from 'zod/mini';
import { named, nullableString, timestampSchema } from './schema-parts.ts';

export const NODE_STATUSES = ['IN_PROGRESS', 'PUBLISHED'] as const;
export type NodeStatus = (typeof NODE_STATUSES)[number];

/** The fields spec §2.1 shows of every node, as stored and as answered. */
const nodeFields = {
  nodeId: z.string(),
  nodeVersionId: z.string(),
  nodeType: z.string(),
  name: z.string(),
  version: z.string().check(z.regex(/^\d+\.\d{4}$/)),
  creationDate: timestampSchema,
  modificationDate: timestampSchema,
  nodeStatus: z.enum(NODE_STATUSES),
  publishedNodeVersionId: nullableString,
  nodeSubType: nullableString,
  nodeSubTypeName: nullableString,
  userNodeSubType: nullableString,
  extensions: z.nullable(z.record(z.string(), z.unknown())),
  deleted: z.boolean(),
  system: z.boolean(),
  locked: z.boolean(),
  referenceNumber: nullableString,
};

/**
 * The §2.1 fields only the service sets, typed as answered: an update may send them back as retrieved
 * (they are ignored), but a value of another type is a mistake the caller hears of.
 */
export const serviceSetFields = {
  version: nodeFields.version,
  creationDate: nodeFields.creationDate,
  modificationDate: nodeFields.modificationDate,
  nodeStatus: nodeFields.nodeStatus,
  publishedNodeVersionId: nodeFields.publishedNodeVersionId,
  deleted: nodeFields.deleted,
  system: nodeFields.system,
  locked: nodeFields.locked,
  favorite: z.boolean(),
};

/**
 * The stored working copy (or published copy) of a node: the §2.1 fields, where it sits, and who changed
 * it. `fields` holds what its type has of its own (its kind's fields, e.g. a document's url).
 */
export const nodeSchema = z.object({
  ...nodeFields,
  /** null for environments (they sit under the library itself). */
  parentId: nullableString,
  /** The environment the node belongs to (its own id for an environment). */
  environmentId: z.string(),
  /** Every node above this one, the environment first and the parent last ([] for an environment). */
  ancestorIds: z.array(z.string()),
  richTextDescription: z._default(nullableString, null),
  createdBy: z.string(),
  modifiedBy: z.string(),
  modifiedByName: nullableString,
  fields: z._default(z.record(z.string(), z.unknown()), {}),
  /**
   * Set on a node written by a multi-commit batch (many tasks added to a process at once): the node exists
   * for readers only once that batch has committed (shared/data/diagram-batches.ts).
   */
  batchId: z.optional(z.string()),
  /**
   * Set (for good) by the node's first relation: only such nodes have relation counts to read, so lists
   * read none for the others. Writes of the working copy carry it and fail if it was set meanwhile.
   */
  hasRelations: z.optional(z.boolean()),
});
export type Node = z.output<typeof nodeSchema>;
/** The §2.1 fields of a node, which is all its BaseElement shows. */
export type NodeBase = Pick<Node, keyof typeof nodeFields>;

/** Spec §2.1 node, as create, retrieve, update and delete answer it. */
export const baseElementSchema = named(
  z.strictObject({
    '@type': z.literal('BaseElement'),
    ...nodeFields,
    favorite: serviceSetFields.favorite,
    editId: z.optional(z.string()),
  }),
  'BaseElement',
);
export type BaseElement = z.output<typeof baseElementSchema>;

/** Spec §2.6 name element: an object named in another's answer. */
export const nameElementSchema = z.strictObject({
  '@type': z.literal('NameElement'),
  name: z.string(),
  nodeType: z.string(),
  nodeId: z.string(),
});
export type NameElement = z.output<typeof nameElementSchema>;

export const nameElement = (node: Pick<Node, 'name' | 'nodeType' | 'nodeId'>): NameElement => ({
  '@type': 'NameElement',
  name: node.name,
  nodeType: node.nodeType,
  nodeId: node.nodeId,
});

/** Identifiers are upper-case UUIDs, as in the spec's examples. */
export function newId(): string {
  return randomUUID().toUpperCase();
}

/**
 * A node version's id: a UUID of version 7 (RFC 9562: 48 bits of Unix milliseconds, then random), upper
 * case, so the ids of one node's versions sort in the order they were made: the version history is read
 * newest first by key alone.
 */
export function newVersionId(at: number = Date.now()): string {
  const bytes = randomBytes(16);
  bytes.writeUIntBE(at, 0, 6);
  bytes[6] = 0x70 | ((bytes[6] as number) & 0x0f);
  bytes[8] = 0x80 | ((bytes[8] as number) & 0x3f);
  const hex = bytes.toString('hex').toUpperCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** When a version id (UUIDv7) was made, in Unix ms; undefined for ids of another kind (earlier versions). */
export function versionIdTime(nodeVersionId: string): number | undefined {
  const hex = nodeVersionId.replace(/-/g, '');
  if (hex.length !== 32 || hex[12] !== '7') return undefined;
  return Number.parseInt(hex.slice(0, 12), 16);
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

/** The largest minor part the format holds (`<major>.<minor4>`). */
const LAST_MINOR = 9999;

/**
 * Each successful write moves the minor part up by one (`0.0001` → `0.0002`, `1.0000` → `1.0001`), up to
 * `<major>.9999`, where it stays until the next publish: the format holds four digits, and a busy process
 * diagram (each change of its tasks or edges is a write) must not be barred from changes by its count.
 * Every write still gets a new nodeVersionId, which is what conditions, ETags and the history key on.
 */
export function nextMinorVersion(version: string): string {
  const { major, minor } = parseVersion(version);
  return formatVersion(major, Math.min(minor + 1, LAST_MINOR));
}

/** Publishing moves to the next major version (`0.0007` → `1.0000`). */
export function nextMajorVersion(version: string): string {
  return formatVersion(parseVersion(version).major + 1, 0);
}

/** The weak validator of a node: its version id. */
export function etagOf(node: Pick<Node, 'nodeVersionId'>): string {
  return `W/"${node.nodeVersionId}"`;
}

export function toBaseElement(node: NodeBase): BaseElement {
  return {
    '@type': 'BaseElement',
    nodeId: node.nodeId,
    nodeVersionId: node.nodeVersionId,
    nodeType: node.nodeType,
    name: node.name,
    version: node.version,
    creationDate: node.creationDate,
    modificationDate: node.modificationDate,
    nodeStatus: node.nodeStatus,
    publishedNodeVersionId: node.publishedNodeVersionId,
    nodeSubType: node.nodeSubType,
    nodeSubTypeName: node.nodeSubTypeName,
    userNodeSubType: node.userNodeSubType,
    extensions: node.extensions,
    deleted: node.deleted,
    system: node.system,
    locked: node.locked,
    referenceNumber: node.referenceNumber,
    // Favourites are per user and arrive with the favourites feature; no node is anyone's yet.
    favorite: false,
  };
}

/** A new node placed under its parent by `author` at `at`: version 0.0001, in progress, nothing else set. */
export function newNode(
  author: { principalId: string; name: string },
  placed: Pick<Node, 'nodeType' | 'name' | 'parentId' | 'environmentId' | 'ancestorIds'> & Partial<Node>,
  at: string,
): Node {
  return {
    nodeId: newId(),
    nodeVersionId: newVersionId(Date.parse(at)),
    version: FIRST_VERSION,
    creationDate: at,
    modificationDate: at,
    nodeStatus: 'IN_PROGRESS',
    publishedNodeVersionId: null,
    nodeSubType: null,
    nodeSubTypeName: null,
    userNodeSubType: null,
    extensions: null,
    deleted: false,
    system: false,
    locked: false,
    referenceNumber: null,
    richTextDescription: null,
    fields: {},
    createdBy: author.principalId,
    modifiedBy: author.principalId,
    modifiedByName: author.name,
    // Known to have none: a link sets it (relation-repository's endIsLive). Nodes stored before the mark
    // existed lack it, and are read as possibly having relations.
    hasRelations: false,
    ...placed,
  };
}
