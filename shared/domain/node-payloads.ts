/**
 * Schemas of the node payloads (spec §2.2) and of the node query parameters. They validate requests
 * and, through JSON Schema, document them: one source.
 */
import * as z from 'zod/mini';
import { named } from '#shared/domain/named.ts';
import { NODE_TYPE_NAMES } from './node-types.ts';

const UUID = /^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$/;

export const LIMITS = {
  nameLength: 255,
  referenceNumberLength: 100,
  urlLength: 2048,
  richTextDescriptionLength: 100_000,
  /** JSON request bodies; keeps a node well inside DynamoDB's 400 KB item limit. */
  jsonBodyBytes: 256 * 1024,
} as const;

/** Every identifier the service issues (nodes, users, sessions, actions) is an upper-case UUID. */
export const uuidSchema = z
  .string()
  .check(z.regex(UUID, 'must be a UUID (e.g. 0F8FAD5B-D9CB-469F-A165-70867728950E)'), z.toUpperCase());
export const nodeIdSchema = uuidSchema;

const notBlank = (s: string) => s.trim().length > 0;

const nameSchema = z
  .string()
  .check(
    z.maxLength(LIMITS.nameLength),
    z.refine(notBlank, { message: 'must not be empty or blank', params: { rule: 'not_blank' } }),
  );

/** A parent reference; name and nodeType are tolerated so a list element's parent can be sent back. */
const parentSchema = z.strictObject({
  nodeId: nodeIdSchema,
  name: z.optional(z.nullable(z.string())),
  nodeType: z.optional(z.nullable(z.string())),
});

const fileInfoSchema = z.strictObject({
  uploadIdentifier: z.string().check(z.minLength(1), z.maxLength(200)),
  name: z.string().check(z.minLength(1), z.maxLength(LIMITS.nameLength)),
});

/** Fields a client may set on create and update. */
const writableFields = {
  '@type': z.string().check(z.minLength(1)),
  nodeType: z.enum(NODE_TYPE_NAMES as [string, ...string[]]),
  name: nameSchema,
  referenceNumber: z.optional(z.nullable(z.string().check(z.maxLength(LIMITS.referenceNumberLength)))),
  richTextDescription: z.optional(
    z.nullable(z.string().check(z.maxLength(LIMITS.richTextDescriptionLength))),
  ),
  extensions: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
  // Spec §2.1: only null is observed for these; values arrive with sub-type management.
  nodeSubType: z.optional(z.null()),
  nodeSubTypeName: z.optional(z.null()),
  userNodeSubType: z.optional(z.null()),
  documentType: z.optional(z.nullable(z.enum(['URL', 'FILE']))),
  url: z.optional(z.nullable(z.httpUrl().check(z.maxLength(LIMITS.urlLength)))),
  fileInfo: z.optional(z.nullable(fileInfoSchema)),
};

export const createNodePayloadSchema = named(
  z.strictObject({
    parent: z.optional(z.nullable(parentSchema)),
    ...writableFields,
  }),
  'CreateNodePayload',
);

/**
 * An update carries the full structure of the object (spec §2.2). Read-only fields of a retrieved
 * node are accepted and ignored, so "retrieve, modify, submit" works with the body as retrieved.
 */
export const updateNodePayloadSchema = named(
  z.strictObject({
    nodeId: nodeIdSchema,
    nodeVersionId: z.string().check(z.minLength(1), z.maxLength(64)),
    parent: z.optional(z.nullable(parentSchema)),
    ...writableFields,
    version: z.optional(z.unknown()),
    creationDate: z.optional(z.unknown()),
    modificationDate: z.optional(z.unknown()),
    nodeStatus: z.optional(z.unknown()),
    publishedNodeVersionId: z.optional(z.unknown()),
    deleted: z.optional(z.unknown()),
    system: z.optional(z.unknown()),
    locked: z.optional(z.unknown()),
    favorite: z.optional(z.unknown()),
  }),
  'UpdateNodePayload',
);

/** Spec §4.6: the delete body is an empty JSON object. */
export const deleteNodePayloadSchema = named(z.strictObject({}), 'DeleteNodePayload');

export type CreateNodePayload = z.infer<typeof createNodePayloadSchema>;
export type UpdateNodePayload = z.infer<typeof updateNodePayloadSchema>;
