/**
 * Schemas of what the API answers. They document the responses (OpenAPI) and the integration tests
 * check every response body against the document built from them.
 */
import * as z from 'zod/mini';
import { named } from '#shared/domain/named.ts';

const nullableString = z.nullable(z.string());
const timestamp = z.iso.datetime({ offset: true, precision: 3 });

export const baseElementSchema = named(
  z.strictObject({
    '@type': z.literal('BaseElement'),
    nodeId: z.string(),
    nodeVersionId: z.string(),
    nodeType: z.string(),
    name: z.string(),
    version: z.string().check(z.regex(/^\d+\.\d{4}$/)),
    creationDate: timestamp,
    modificationDate: timestamp,
    nodeStatus: z.enum(['IN_PROGRESS', 'PUBLISHED']),
    publishedNodeVersionId: nullableString,
    nodeSubType: nullableString,
    nodeSubTypeName: nullableString,
    userNodeSubType: nullableString,
    extensions: z.nullable(z.record(z.string(), z.unknown())),
    deleted: z.boolean(),
    system: z.boolean(),
    locked: z.boolean(),
    favorite: z.boolean(),
    referenceNumber: nullableString,
    editId: z.optional(z.string()),
  }),
  'BaseElement',
);

/** `detail=true`: what an update sends back, plus where an environment keeps each facet. */
export const detailedElementSchema = z.extend(baseElementSchema, {
  parent: z.nullable(z.strictObject({ nodeId: z.string() })),
  richTextDescription: nullableString,
  documentType: z.optional(z.nullable(z.enum(['URL', 'FILE']))),
  url: z.optional(nullableString),
  fileInfo: z.optional(z.nullable(z.strictObject({ uploadIdentifier: z.string(), name: z.string() }))),
  systemRoots: z.optional(z.record(z.string(), z.string())),
});

/** What retrieve answers: the node, or with `detail=true` the detailed node. */
export const retrievedNodeSchema = named(
  z.union([baseElementSchema, detailedElementSchema]),
  'RetrievedNode',
);

export const deletedNodesSchema = named(z.array(baseElementSchema), 'DeletedNodes');

const count = z.int().check(z.minimum(0));

export const listElementSchema = z.strictObject({
  ...z.omit(baseElementSchema, { '@type': true, editId: true }).shape,
  '@type': z.literal('ListElement'),
  parent: z.nullable(z.strictObject({ nodeId: z.string(), name: z.string(), nodeType: z.string() })),
  documentCount: count,
  relatedResourceCount: count,
  roleCount: count,
  relatedAssetCount: count,
  orgUnitCount: count,
  assetCount: count,
  relatedRoleCount: count,
  relatedOrgUnitCount: count,
  resourceCount: count,
  responsibilities: z.strictObject({
    informed: z.boolean(),
    accountable: z.boolean(),
    verifier: z.boolean(),
    responsible: z.boolean(),
    signatory: z.boolean(),
    consulted: z.boolean(),
    support: z.boolean(),
  }),
  propertyValues: z.nullable(z.record(z.string(), z.unknown())),
  categories: z.nullable(z.array(z.unknown())),
  locationListItemId: nullableString,
  productListItemId: nullableString,
  acronym: nullableString,
  hasDescription: z.boolean(),
  shortDescription: nullableString,
  lastModifiedByName: nullableString,
});

/** What the analyzer list adds to a list element: why the object needs attention. */
export const analyzerElementSchema = z.strictObject({
  ...listElementSchema.shape,
  findings: z.array(z.enum(['NEVER_PUBLISHED', 'UNPUBLISHED_CHANGES', 'NO_DESCRIPTION'])),
});

/** One facet of the maturity list. */
export const maturityElementSchema = z.strictObject({
  '@type': z.literal('MaturityElement'),
  facet: z.string(),
  nodeTypes: z.array(z.string()),
  total: count,
  inProgress: count,
  published: count,
  publishedShare: z.number().check(z.minimum(0), z.maximum(1)),
});

const pageOf = <T extends z.ZodMiniType>(item: T) =>
  z.strictObject({
    totalRecords: count,
    sortKey: z.string(),
    order: z.enum(['ASC', 'DESC']),
    pageSize: z.int().check(z.minimum(1)),
    currentPage: z.int().check(z.minimum(1)),
    results: z.array(item),
  });

/** List pages add whether the total is exact and the cursor of the next page. */
const listPageOf = <T extends z.ZodMiniType>(item: T) =>
  z.extend(pageOf(item), { totalRecordsExact: z.boolean(), nextCursor: nullableString });

export const listPageSchema = named(listPageOf(listElementSchema), 'ListPage');
export const analyzerPageSchema = named(listPageOf(analyzerElementSchema), 'AnalyzerPage');
export const maturityPageSchema = named(listPageOf(maturityElementSchema), 'MaturityPage');

/** RFC 9457 problem details; some codes add members (e.g. currentNodeVersionId, allowedMethods). */
export const problemSchema = named(
  z.looseObject({
    type: z.string(),
    title: z.string(),
    status: z.int(),
    detail: z.string(),
    code: z.string(),
    instance: z.string(),
    requestId: z.string(),
    errors: z.optional(
      z.array(
        z.strictObject({
          in: z.enum(['body', 'query', 'path', 'header']),
          path: z.string(),
          rule: z.string(),
          message: z.string(),
        }),
      ),
    ),
  }),
  'Problem',
);

const principalSchema = z.strictObject({
  principalId: z.string(),
  username: z.string(),
  name: z.string(),
  firstName: nullableString,
  middleName: nullableString,
  lastName: nullableString,
  phone: nullableString,
  email: nullableString,
});

const roleSchema = z.enum(['READER', 'EDITOR', 'ENVIRONMENT_ADMIN']);

/** A user as administrators see it (never a password hash). */
export const userViewSchema = named(
  z.extend(principalSchema, {
    roles: z.array(z.string()),
    grants: z.array(z.strictObject({ nodeId: z.string(), role: roleSchema })),
    status: z.enum(['ACTIVE', 'DISABLED']),
    createdAt: timestamp,
  }),
  'User',
);

export const usersPageSchema = named(pageOf(userViewSchema), 'UsersPage');

export const grantSchema = named(
  z.strictObject({
    nodeId: z.string(),
    principalId: z.string(),
    role: roleSchema,
    grantedBy: z.string(),
    grantedAt: timestamp,
  }),
  'Grant',
);
export const grantsSchema = z.array(grantSchema);

export const sessionsPageSchema = named(
  pageOf(
    z.strictObject({
      sessionId: z.string(),
      user: z.nullable(principalSchema),
      createdAt: timestamp,
      lastSeenAt: timestamp,
      expiresAt: timestamp,
      userAgent: nullableString,
      sourceIp: nullableString,
    }),
  ),
  'SessionsPage',
);

const nameElementSchema = z.strictObject({
  '@type': z.literal('NameElement'),
  name: z.string(),
  nodeType: z.string(),
  nodeId: z.string(),
});

const pointSchema = z.strictObject({ x: z.int(), y: z.int() });

/** Per-type retrieve: the node fields with the object's own @type, and its type's own fields. */
export const typedElementSchema = named(
  z.strictObject({
    ...z.omit(baseElementSchema, { '@type': true }).shape,
    '@type': z.string(),
    parent: z.nullable(nameElementSchema),
    richTextDescription: nullableString,
    documentType: z.optional(z.nullable(z.enum(['URL', 'FILE']))),
    url: z.optional(nullableString),
    fileInfo: z.optional(z.nullable(z.strictObject({ uploadIdentifier: z.string(), name: z.string() }))),
    tasks: z.optional(z.array(baseElementSchema)),
    edges: z.optional(
      z.array(
        z.strictObject({
          sourceNodeId: z.string(),
          sourcePortPoint: pointSchema,
          targetNodeId: z.string(),
          targetPortPoint: pointSchema,
        }),
      ),
    ),
    attributes: z.optional(z.array(nameElementSchema)),
  }),
  'TypedElement',
);

/** Spec §2.6 action, with its status and completion date. */
export const actionSchema = named(
  z.strictObject({
    actionId: z.string(),
    actionType: z.string(),
    actionUrl: z.url(),
    comment: z.string(),
    dueDate: z.iso.date(),
    creationDate: timestamp,
    nodeVersionId: z.string(),
    targetNode: nameElementSchema,
    parent: z.nullable(nameElementSchema),
    targetNodeSequenceNumber: z.string(),
    targetNodeVersionId: nullableString,
    targetVersion: nullableString,
    targetUrl: nullableString,
    onVersion: nullableString,
    postId: nullableString,
    onLatestVersion: z.boolean(),
    onNextPublished: z.boolean(),
    onLatestPublished: z.boolean(),
    sentBy: principalSchema,
    user: principalSchema,
    status: z.enum(['OPEN', 'DONE']),
    completionDate: z.nullable(timestamp),
  }),
  'Action',
);
export const actionsSchema = z.array(actionSchema);
export const actionsPageSchema = pageOf(actionSchema);
