/**
 * Relations: typed links from one object to another (or to a user), and the catalogue of which pairs
 * may be linked under which name. A RACI responsibility is a relation too: the seven kinds name it in
 * the API and are kept together on one link per object and assignee (so a role counts once however many
 * kinds it holds). A user holds an organization role by the role's `heldBy` relation to the user.
 *
 * Counts (spec §2.4) are kept per object from its relations in both directions whose other end is live:
 * see `countCategoryOf`.
 */
import * as z from 'zod/mini';
import { countSchema, named, nullableString } from './schema-parts.ts';

export const RESPONSIBILITY_KINDS = [
  'informed',
  'accountable',
  'verifier',
  'responsible',
  'signatory',
  'consulted',
  'support',
] as const;
export type ResponsibilityKind = (typeof RESPONSIBILITY_KINDS)[number];
export type Responsibilities = Record<ResponsibilityKind, boolean>;

/** The stored name of every responsibility link (its kinds are a set on the link). */
export const RESPONSIBILITY = 'responsibility';

/** A user, as the target of a relation (users are not objects). */
export const USER_END = 'USER';

const CONTENT_TYPES = [
  'PROCESS',
  'TASK',
  'DOCUMENT',
  'ORG_UNIT',
  'ROLE',
  'RESOURCE',
  'ASSET',
  'TERM',
  'RULE',
  'RISK',
  'CONTROL',
  'CAPABILITY',
  'INDICATOR',
  'ENTITY',
  'ATTRIBUTE',
  'POST',
] as const;

export interface RelationDefinition {
  /** The name in the API (for responsibilities: each kind). */
  relation: string;
  from: readonly string[];
  /** nodeTypes, and USER_END where a user may be the target. */
  to: readonly string[];
  description: string;
}

const define = (
  relation: string,
  from: readonly string[],
  to: readonly string[],
  description: string,
): RelationDefinition => ({ relation, from, to, description });

const ASSIGNABLE = ['PROCESS', 'TASK'] as const;
const ASSIGNEES = ['ROLE', 'ORG_UNIT', USER_END] as const;

/** The catalogue: which nodeType may relate to which, under which relation name (from → to). */
export const RELATION_CATALOGUE: readonly RelationDefinition[] = [
  define('documentedBy', CONTENT_TYPES, ['DOCUMENT'], 'The object is described or governed by the document'),
  define(
    'uses',
    ['PROCESS', 'TASK', 'CAPABILITY'],
    ['ASSET', 'RESOURCE'],
    'The process, task or capability uses the asset (an IT system, a machine) or resource',
  ),
  define('mitigatedBy', ['RISK'], ['CONTROL'], 'The risk is mitigated by the control'),
  define(
    'affects',
    ['RISK'],
    ['PROCESS', 'TASK', 'ASSET', 'CAPABILITY', 'RESOURCE'],
    'The risk affects the object',
  ),
  define('realizedBy', ['CAPABILITY'], ['PROCESS'], 'The capability is realized by the process'),
  define('governedBy', ['PROCESS', 'TASK', 'CAPABILITY'], ['RULE'], 'The object follows the rule'),
  define(
    'measuredBy',
    ['PROCESS', 'TASK', 'CAPABILITY', 'CONTROL'],
    ['INDICATOR'],
    'The object is measured by the indicator',
  ),
  define('definedBy', CONTENT_TYPES, ['TERM'], 'The object uses the glossary term'),
  define('relatesTo', CONTENT_TYPES, CONTENT_TYPES, 'Any other relation between two objects'),
  define('heldBy', ['ROLE'], [USER_END], 'The user holds the organization role'),
  ...RESPONSIBILITY_KINDS.map((kind) =>
    define(
      kind,
      ASSIGNABLE,
      ASSIGNEES,
      `RACI: the role, org unit or user is ${kind} for the process or task`,
    ),
  ),
];

export const RELATION_NAMES = RELATION_CATALOGUE.map((d) => d.relation);

export const isResponsibility = (relation: string): relation is ResponsibilityKind =>
  (RESPONSIBILITY_KINDS as readonly string[]).includes(relation);

/** The name a relation is stored under (the seven kinds share one link). */
export const storedName = (relation: string) => (isResponsibility(relation) ? RESPONSIBILITY : relation);

export function relationDefinition(relation: string): RelationDefinition | undefined {
  return RELATION_CATALOGUE.find((d) => d.relation === relation);
}

/** The nine counts of a list element (spec §2.4), and the total of counted relations. */
export const RELATION_COUNTS = [
  'documentCount',
  'relatedResourceCount',
  'roleCount',
  'relatedAssetCount',
  'orgUnitCount',
  'assetCount',
  'relatedRoleCount',
  'relatedOrgUnitCount',
  'resourceCount',
] as const;
export type RelationCountName = (typeof RELATION_COUNTS)[number];
export type RelationCounts = Record<RelationCountName | 'relationCount', number>;

export const noRelationCounts = (): RelationCounts => ({
  relationCount: 0,
  ...(Object.fromEntries(RELATION_COUNTS.map((name) => [name, 0])) as Record<RelationCountName, number>),
});

/**
 * Which count a relation adds to, seen from one end (`direction` from that end, `otherType` the other
 * end's nodeType):
 * - documentCount: a DOCUMENT at the other end, either direction, any relation;
 * - assetCount, resourceCount: the object `uses` the asset or resource;
 * - roleCount, orgUnitCount: roles and org units holding a responsibility on the object (one per
 *   assignee, whatever kinds it holds);
 * - relatedAssetCount, relatedResourceCount, relatedRoleCount, relatedOrgUnitCount: any other relation,
 *   either direction, with an asset, resource, role or org unit at the other end.
 */
export function countCategoryOf(
  direction: 'out' | 'in',
  name: string,
  otherType: string,
): RelationCountName | undefined {
  if (otherType === 'DOCUMENT') return 'documentCount';
  if (direction === 'out' && name === 'uses') {
    if (otherType === 'ASSET') return 'assetCount';
    if (otherType === 'RESOURCE') return 'resourceCount';
  }
  if (direction === 'out' && name === RESPONSIBILITY) {
    if (otherType === 'ROLE') return 'roleCount';
    if (otherType === 'ORG_UNIT') return 'orgUnitCount';
  }
  const related: Record<string, RelationCountName> = {
    ASSET: 'relatedAssetCount',
    RESOURCE: 'relatedResourceCount',
    ROLE: 'relatedRoleCount',
    ORG_UNIT: 'relatedOrgUnitCount',
  };
  return related[otherType];
}

/** One relation as the API shows it, from the object asked about. */
export const relationViewSchema = named(
  z.strictObject({
    relation: z.string(),
    /** out: this object → other; in: other → this object. */
    direction: z.enum(['out', 'in']),
    /** For responsibilities: the kinds the assignee holds (relation is then the kind asked about, or the first). */
    kinds: z.optional(z.array(z.enum(RESPONSIBILITY_KINDS))),
    other: z.strictObject({
      /** A nodeId, or a user's principalId when nodeType is USER. */
      id: z.string(),
      nodeType: z.string(),
      name: nullableString,
    }),
    createdAt: z.string(),
    createdByName: nullableString,
  }),
  'Relation',
);
export type RelationView = z.output<typeof relationViewSchema>;

const responsibilitiesShape = Object.fromEntries(RESPONSIBILITY_KINDS.map((k) => [k, z.boolean()])) as Record<
  ResponsibilityKind,
  z.ZodMiniBoolean
>;
export const responsibilitiesSchema = z.strictObject(responsibilitiesShape);

export const noResponsibilities = (): Responsibilities =>
  Object.fromEntries(RESPONSIBILITY_KINDS.map((k) => [k, false])) as Responsibilities;

/** The summary of an object's relations in its per-type retrieve. */
export const relationSummarySchema = z.strictObject({
  relationCount: countSchema,
  ...(Object.fromEntries(RELATION_COUNTS.map((name) => [name, countSchema])) as Record<
    RelationCountName,
    typeof countSchema
  >),
  /** The caller's own responsibilities on the object, directly and through the roles they hold. */
  responsibilities: responsibilitiesSchema,
});
export type RelationSummary = z.output<typeof relationSummarySchema>;
