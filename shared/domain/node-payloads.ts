/**
 * Schemas of the node payloads (spec §2.2). They validate requests and, through JSON Schema, document
 * them: one source.
 */
import * as z from 'zod/mini';
import { named, objectNameSchema, readableTextSchema, uuidSchema } from '#shared/domain/schema-parts.ts';
import { bodyError } from './errors.ts';
import { toFieldErrors } from './field-errors.ts';
import { serviceSetFields } from './node.ts';
import { childListShape, kindViewShape } from './node-elements.ts';
import { linkSchema, URL_MAX_LENGTH } from './node-kinds/document.ts';
import type { NodeKind } from './node-kinds/kind.ts';
import { KINDS, NODE_TYPE_NAMES, type NodeTypeDefinition } from './node-types.ts';
import { taskEdgePayloadSchema } from './process-diagram.ts';
import { relationSummarySchema } from './relations.ts';

export const LIMITS = {
  nameLength: 255,
  referenceNumberLength: 100,
  richTextDescriptionLength: 100_000,
} as const;

const nodeIdSchema = uuidSchema;

const nameSchema = objectNameSchema(LIMITS.nameLength);

/**
 * A parent reference; the rest of a name element is tolerated, so the parent of a list element or of a
 * per-type retrieve can be sent back.
 */
const parentSchema = z.strictObject({
  nodeId: nodeIdSchema,
  '@type': z.optional(z.string()),
  name: z.optional(z.nullable(z.string())),
  nodeType: z.optional(z.nullable(z.string())),
});

/**
 * Every kind's own fields. Typed as no fields at all: the payload's type names only the common ones,
 * and the kinds read their own (node-kinds/).
 */
const kindPayloadFields: Record<never, never> = Object.assign({}, ...KINDS.map((kind) => kind.payloadShape));

/** Fields a client may set on create and update. */
const writableFields = {
  '@type': z.string().check(z.minLength(1)),
  nodeType: z.enum(NODE_TYPE_NAMES as [string, ...string[]]),
  name: nameSchema,
  referenceNumber: z.optional(z.nullable(readableTextSchema(LIMITS.referenceNumberLength))),
  richTextDescription: z.optional(z.nullable(readableTextSchema(LIMITS.richTextDescriptionLength))),
  extensions: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
  // Spec §2.1: only null is observed for these; values arrive with sub-type management.
  nodeSubType: z.optional(z.null()),
  nodeSubTypeName: z.optional(z.null()),
  userNodeSubType: z.optional(z.null()),
  // The fields of every kind: each type takes its own kind's, which the service reads through the kind.
  ...kindPayloadFields,
};

/**
 * Fields of the fuller views that only the service sets (a task's bpmnKind, a process's tasks and edges,
 * a per-type retrieve's relation summary): sent back, they are ignored, but must have the type they are
 * answered with.
 */
const viewOnlyFields: Record<never, never> = {
  ...Object.fromEntries(
    KINDS.flatMap((kind) => Object.keys(kind.viewShape).filter((name) => !(name in kind.payloadShape))).map(
      (name) => [name, kindViewShape[name]],
    ),
  ),
  ...childListShape,
  // A process's edges as its view shows them, or a task's as add-nodes took it (by editId).
  edges: z.optional(
    z.union([(kindViewShape.edges as z.ZodMiniOptional).def.innerType, z.array(taskEdgePayloadSchema)]),
  ),
  relationSummary: z.optional(relationSummarySchema),
};

export const createNodePayloadSchema = named(
  z.strictObject({
    parent: z.optional(z.nullable(parentSchema)),
    ...writableFields,
  }),
  'CreateNodePayload',
);

/**
 * Text whose rules are newer than some stored values (control characters, a link's spaces): an update
 * takes such a field unchanged as stored, and holds it to the rules only when it changes
 * (changedTextSchema, checked against the stored object by the service), so an object stored before
 * can still be sent back as retrieved.
 */
const textAsStored = (maxLength: number) => z.optional(z.nullable(z.string().check(z.maxLength(maxLength))));
const textKeptIfUnchanged = {
  // A name stored before it counted as blank (made of fillers) or held control characters.
  name: z.string().check(z.maxLength(LIMITS.nameLength)),
  referenceNumber: textAsStored(LIMITS.referenceNumberLength),
  richTextDescription: textAsStored(LIMITS.richTextDescriptionLength),
  url: textAsStored(URL_MAX_LENGTH),
};
/** The rules those fields are held to when an update changes them. */
const changedTextSchema = z.object({
  name: z.optional(nameSchema),
  referenceNumber: writableFields.referenceNumber,
  richTextDescription: writableFields.richTextDescription,
  url: z.optional(z.nullable(linkSchema)),
});
type ChangedTextField = keyof typeof textKeptIfUnchanged;

/** The rules the text fields an update changes break; those sent as `stored` has them pass. */
export function changedTextErrors(payload: Payload, stored: Record<ChangedTextField, unknown>) {
  const changed = Object.fromEntries(
    (Object.keys(stored) as ChangedTextField[]).flatMap((field) => {
      const sent = (payload as Record<string, unknown>)[field];
      return sent === undefined || sent === null || sent === stored[field] ? [] : [[field, sent]];
    }),
  );
  const result = changedTextSchema.safeParse(changed, { reportInput: true });
  return result.success ? [] : result.error.issues.flatMap((issue) => toFieldErrors(issue, 'body'));
}

/**
 * An update carries the structure of the object (spec §2.2): fields left out keep their values, null
 * clears an optional one. Read-only fields of a retrieved node (plain, detailed or per-type) are accepted
 * and ignored, so "retrieve, modify, submit" works with the body as retrieved; the §2.1 ones must still
 * have the type they are answered with.
 */
export const updateNodePayloadSchema = named(
  z.strictObject({
    nodeId: nodeIdSchema,
    // Issued as an upper-case UUID; quoted in any letter case, as nodeIds are.
    nodeVersionId: uuidSchema,
    parent: z.optional(z.nullable(parentSchema)),
    ...writableFields,
    ...textKeptIfUnchanged,
    version: z.optional(serviceSetFields.version),
    creationDate: z.optional(serviceSetFields.creationDate),
    modificationDate: z.optional(serviceSetFields.modificationDate),
    nodeStatus: z.optional(serviceSetFields.nodeStatus),
    publishedNodeVersionId: z.optional(serviceSetFields.publishedNodeVersionId),
    deleted: z.optional(serviceSetFields.deleted),
    system: z.optional(serviceSetFields.system),
    locked: z.optional(serviceSetFields.locked),
    favorite: z.optional(serviceSetFields.favorite),
    // A task as add-nodes answered it (or as the client sent it there) names the editId of that call.
    editId: z.optional(z.string()),
    ...viewOnlyFields,
  }),
  'UpdateNodePayload',
);

/** Spec §4.6: the delete body is an empty JSON object. */
export const deleteNodePayloadSchema = named(z.strictObject({}), 'DeleteNodePayload');

export type CreateNodePayload = z.infer<typeof createNodePayloadSchema>;
export type UpdateNodePayload = z.infer<typeof updateNodePayloadSchema>;

type Payload = CreateNodePayload | UpdateNodePayload;

/** The settable fields of a node after a create (`current` absent) or an update of `current`. */
export interface SettableFields {
  name: string;
  referenceNumber: string | null;
  richTextDescription: string | null;
  extensions: Record<string, unknown> | null;
  fields: Record<string, unknown>;
}

const sent = <T>(value: T | undefined, kept: T): T => (value === undefined ? kept : value);

/**
 * What a payload sets: a field sent replaces the value (null clears it), a field left out keeps the
 * current one (none on create), so the body of a retrieve can be sent back with one field changed.
 */
export function settableFields(payload: Payload, kind: NodeKind, current?: SettableFields): SettableFields {
  return {
    name: payload.name.trim(),
    referenceNumber: sent(payload.referenceNumber, current?.referenceNumber ?? null),
    richTextDescription: sent(payload.richTextDescription, current?.richTextDescription ?? null),
    extensions: sent(payload.extensions, current?.extensions ?? null),
    fields: kind.merge(payload, current?.fields),
  };
}

/**
 * Rules of a payload that depend on its type: its `@type` (on update the retrieved `BaseElement` is
 * accepted too), no field of another kind, and the kind's own rules on the resulting fields.
 */
export function payloadErrors(
  payload: Payload,
  definition: NodeTypeDefinition,
  fields: Record<string, unknown>,
) {
  const sentType = payload['@type'];
  const typeErrors =
    sentType === definition.payloadType || ('nodeVersionId' in payload && sentType === 'BaseElement')
      ? []
      : [
          bodyError(
            '$["@type"]',
            'type_mismatch',
            `must be "${definition.payloadType}" for nodeType ${definition.nodeType}`,
          ),
        ];
  const own = new Set(definition.kind.fieldNames);
  const values: Record<string, unknown> = payload;
  const foreign = KINDS.flatMap((kind) => kind.fieldNames)
    .filter((name) => !own.has(name) && values[name] != null)
    .map((name) =>
      bodyError(`$.${name}`, 'not_applicable', `does not apply to nodeType ${definition.nodeType}`),
    );
  return [...typeErrors, ...foreign, ...definition.kind.check(fields)];
}
