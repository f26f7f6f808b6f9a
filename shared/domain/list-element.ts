/** Spec §2.4: list elements and list pages. */
import * as z from 'zod/mini';
import { baseElementSchema, type Node, toBaseElement } from './node.ts';
import {
  noRelationCounts,
  noResponsibilities,
  type RelationCounts,
  type Responsibilities,
  responsibilitiesSchema,
} from './relations.ts';
import { countSchema, named, nullableString, pageOf } from './schema-parts.ts';
import { cutText } from './well-formed-text.ts';

/**
 * An object as a list reads it (a projection of its stored copy): everything a list element, an analyzer
 * element and the list's own reads use (its parent, description, last editor, hasRelations, batchId), not
 * its kind's fields, where it sits above its parent, nor who made it.
 */
export type ListedNode = Omit<Node, 'environmentId' | 'ancestorIds' | 'createdBy' | 'modifiedBy' | 'fields'>;

export const listElementSchema = z.strictObject({
  ...z.omit(baseElementSchema, { '@type': true, editId: true }).shape,
  '@type': z.literal('ListElement'),
  parent: z.nullable(z.strictObject({ nodeId: z.string(), name: z.string(), nodeType: z.string() })),
  documentCount: countSchema,
  relatedResourceCount: countSchema,
  roleCount: countSchema,
  relatedAssetCount: countSchema,
  orgUnitCount: countSchema,
  assetCount: countSchema,
  relatedRoleCount: countSchema,
  relatedOrgUnitCount: countSchema,
  resourceCount: countSchema,
  responsibilities: responsibilitiesSchema,
  propertyValues: z.nullable(z.record(z.string(), z.unknown())),
  categories: z.nullable(z.array(z.unknown())),
  locationListItemId: nullableString,
  productListItemId: nullableString,
  acronym: nullableString,
  hasDescription: z.boolean(),
  shortDescription: nullableString,
  lastModifiedByName: nullableString,
});
export type ListElement = z.output<typeof listElementSchema>;

/**
 * A list page of spec §2.4, plus `totalRecordsExact` (false when a filter no count is kept for leaves
 * totalRecords an upper bound) and `nextCursor` (pass it as `cursor` for the next page; null on the last).
 */
export const listPageOf = <T extends z.ZodMiniType>(item: T) =>
  z.extend(pageOf(item), { totalRecordsExact: z.boolean(), nextCursor: nullableString });
export const listPageSchema = named(listPageOf(listElementSchema), 'ListPage');
export type ListPage<E = ListElement> = Omit<z.output<typeof listPageSchema>, 'results'> & { results: E[] };

const SHORT_DESCRIPTION_LENGTH = 200;

/** A character from its decimal or hex reference, unless it names none a text may hold (a surrogate). */
function referenced(code: number, reference: string): string {
  return code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : reference;
}

/** Plain text of an HTML description, collapsed and cut to a short summary. */
export function shortDescriptionOf(html: string | null): string | null {
  if (!html) return null;
  const text = html
    // What scripts and style sheets hold is not text a reader sees.
    .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&#(\d{1,7});/g, (reference, digits: string) => referenced(Number(digits), reference))
    .replace(/&#x([0-9a-f]{1,6});/gi, (reference, hex: string) =>
      referenced(Number.parseInt(hex, 16), reference),
    )
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
  if (!text) return null;
  return text.length > SHORT_DESCRIPTION_LENGTH ? `${cutText(text, SHORT_DESCRIPTION_LENGTH - 1)}…` : text;
}

/**
 * A list element of `node`; `relations` are the object's kept relation counts and the caller's
 * responsibilities on it (relations.ts says what each count counts).
 */
export function toListElement(
  node: ListedNode,
  parent: ListElement['parent'],
  relations: { counts?: RelationCounts; responsibilities?: Responsibilities } = {},
): ListElement {
  const { '@type': _type, editId: _editId, ...base } = toBaseElement(node);
  const shortDescription = shortDescriptionOf(node.richTextDescription);
  const { relationCount: _total, ...counts } = relations.counts ?? noRelationCounts();
  return {
    '@type': 'ListElement',
    ...base,
    parent,
    ...counts,
    responsibilities: relations.responsibilities ?? noResponsibilities(),
    propertyValues: null,
    categories: null,
    locationListItemId: null,
    productListItemId: null,
    acronym: null,
    hasDescription: shortDescription !== null,
    shortDescription,
    lastModifiedByName: node.modifiedByName,
  };
}
