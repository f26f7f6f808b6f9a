/** A version in a node's history (spec §2.1 version, nodeVersionId), as the version list shows it. */
import * as z from 'zod/mini';
import { listPageOf } from './list-element.ts';
import { NODE_STATUSES, type Node } from './node.ts';
import { named, uuidSchema } from './schema-parts.ts';

export const versionElementSchema = named(
  z.strictObject({
    '@type': z.literal('VersionElement'),
    nodeId: z.string(),
    nodeVersionId: z.string(),
    version: z.string(),
    nodeStatus: z.enum(NODE_STATUSES),
    name: z.string(),
    modificationDate: z.string(),
    lastModifiedByName: z.nullable(z.string()),
    /** The copy a delete left (and answered): the object as deleted, by whom and when; no publish. */
    deleted: z.boolean(),
    /** The working copy: the version later writes start from. */
    current: z.boolean(),
  }),
  'VersionElement',
);
export type VersionElement = z.output<typeof versionElementSchema>;
export const versionsPageSchema = named(listPageOf(versionElementSchema), 'VersionsPage');

export const toVersionElement = (node: Node, current: boolean): VersionElement => ({
  '@type': 'VersionElement',
  nodeId: node.nodeId,
  nodeVersionId: node.nodeVersionId,
  version: node.version,
  nodeStatus: node.nodeStatus,
  name: node.name,
  modificationDate: node.modificationDate,
  lastModifiedByName: node.modifiedByName ?? null,
  deleted: node.deleted,
  current,
});

/** The body of publish and restore: the nodeVersionId the caller saw (or an If-Match naming it instead). */
/** The version a write quotes: a nodeVersionId as the service issues them (any letter case). */
export const versionQuotePayloadSchema = z.strictObject({ nodeVersionId: z.optional(uuidSchema) });
export type VersionQuotePayload = z.output<typeof versionQuotePayloadSchema>;
