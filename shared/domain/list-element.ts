/** Spec §2.4: list elements and list pages. */
import * as z from 'zod/mini';
import { baseElementSchema, type Node, toBaseElement } from './node.ts';
import { countSchema, named, nullableString, pageOf } from './schema-parts.ts';

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

/** Plain text of an HTML description, collapsed and cut to a short summary. */
export function shortDescriptionOf(html: string | null): string | null {
  if (!html) return null;
  const text = html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
  if (!text) return null;
  return text.length > SHORT_DESCRIPTION_LENGTH ? `${text.slice(0, SHORT_DESCRIPTION_LENGTH - 1)}…` : text;
}

/**
 * Relations (documents, roles, resources, assets, org units linked to an object) and RACI
 * responsibilities do not exist yet in this version, so their counts are truly zero and no caller holds
 * a responsibility.
 */
export function toListElement(node: Node, parent: ListElement['parent']): ListElement {
  const { '@type': _type, editId: _editId, ...base } = toBaseElement(node);
  const shortDescription = shortDescriptionOf(node.richTextDescription);
  return {
    '@type': 'ListElement',
    ...base,
    parent,
    documentCount: 0,
    relatedResourceCount: 0,
    roleCount: 0,
    relatedAssetCount: 0,
    orgUnitCount: 0,
    assetCount: 0,
    relatedRoleCount: 0,
    relatedOrgUnitCount: 0,
    resourceCount: 0,
    responsibilities: {
      informed: false,
      accountable: false,
      verifier: false,
      responsible: false,
      signatory: false,
      consulted: false,
      support: false,
    },
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
