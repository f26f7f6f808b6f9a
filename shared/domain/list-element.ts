/** Spec §2.4: list elements and list pages. */
import { type BaseElement, type Node, toBaseElement } from './node.ts';

export interface Responsibilities {
  informed: boolean;
  accountable: boolean;
  verifier: boolean;
  responsible: boolean;
  signatory: boolean;
  consulted: boolean;
  support: boolean;
}

export interface ListElement extends Omit<BaseElement, '@type' | 'editId'> {
  '@type': 'ListElement';
  parent: { nodeId: string; name: string; nodeType: string } | null;
  documentCount: number;
  relatedResourceCount: number;
  roleCount: number;
  relatedAssetCount: number;
  orgUnitCount: number;
  assetCount: number;
  relatedRoleCount: number;
  relatedOrgUnitCount: number;
  resourceCount: number;
  responsibilities: Responsibilities;
  propertyValues: Record<string, unknown> | null;
  categories: unknown[] | null;
  locationListItemId: string | null;
  productListItemId: string | null;
  acronym: string | null;
  hasDescription: boolean;
  shortDescription: string | null;
  lastModifiedByName: string | null;
}

export interface ListPage<E = ListElement> {
  totalRecords: number;
  /**
   * False when a filter no count is kept for (name, modifiedSince, draft=false, the analyzer's) leaves
   * totalRecords an upper bound: the number of objects the list holds without that filter.
   */
  totalRecordsExact: boolean;
  sortKey: string;
  order: 'ASC' | 'DESC';
  pageSize: number;
  currentPage: number;
  results: E[];
  /** Pass as `cursor` for the next page; null on the last page. */
  nextCursor: string | null;
}

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
