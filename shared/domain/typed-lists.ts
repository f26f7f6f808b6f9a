/**
 * The per-type list paths of spec §4.7, spelled exactly as published (`capabiltity`), with the nodeTypes
 * each lists. The governance lists cover every governed object: the content items of all facets (not
 * environments, system roots, folders or process tasks, which are parts of their process).
 *
 * Governance semantics (defined here, documented in the reference):
 * - overview: every governed object with its status and publication, like any list;
 * - analyzer: governed objects that need attention, each with its findings: NEVER_PUBLISHED,
 *   UNPUBLISHED_CHANGES (a draft newer than the published version), NO_DESCRIPTION;
 * - maturity: per facet, how many governed objects there are and how many are published.
 */
import type { Facet } from './node-types.ts';

export type TypedListKind = 'objects' | 'analyzer' | 'maturity';

export interface TypedList {
  /** Path under /api/v1. */
  path: string;
  kind: TypedListKind;
  nodeTypes: readonly string[];
  tag: string;
  label: string;
}

/** The content items of each facet: what its per-type list shows. */
export const FACET_ITEM_TYPES: Partial<Record<Facet, readonly string[]>> = {
  capability: ['CAPABILITY'],
  collaboration: ['POST'],
  control: ['CONTROL'],
  document: ['DOCUMENT'],
  glossary: ['TERM'],
  masterData: ['ENTITY', 'ATTRIBUTE'],
  organization: ['ORG_UNIT', 'ROLE', 'RESOURCE', 'ASSET'],
  performance: ['INDICATOR'],
  process: ['PROCESS'],
  risk: ['RISK'],
  rule: ['RULE'],
};

export const GOVERNED_NODE_TYPES: readonly string[] = Object.values(FACET_ITEM_TYPES).flat();

const facetList = (path: string, facet: Facet, tag: string, label: string): TypedList => ({
  path,
  kind: 'objects',
  nodeTypes: FACET_ITEM_TYPES[facet] ?? [],
  tag,
  label,
});

const governanceList = (path: string, kind: TypedListKind, label: string): TypedList => ({
  path,
  kind,
  nodeTypes: GOVERNED_NODE_TYPES,
  tag: 'Governance',
  label,
});

export const TYPED_LISTS: readonly TypedList[] = [
  facetList('/capabiltity/list', 'capability', 'Capability', 'capabilities'),
  facetList('/collaboration/list', 'collaboration', 'Collaboration', 'collaboration posts'),
  facetList('/control/list', 'control', 'Control', 'controls'),
  facetList('/document/list', 'document', 'Document', 'documents'),
  facetList('/glossary/list', 'glossary', 'Glossary', 'glossary terms'),
  governanceList('/governance/analyzer-list', 'analyzer', 'governed objects that need attention'),
  governanceList('/governance/maturity-list', 'maturity', 'governance maturity per facet'),
  governanceList('/governance/overview-list', 'objects', 'governed objects'),
  facetList('/masterData/list', 'masterData', 'Master data', 'master-data entities and attributes'),
  facetList('/organization/list', 'organization', 'Organization', 'org units, roles, resources and assets'),
  facetList('/performances/list', 'performance', 'Performance', 'performance indicators'),
  facetList('/process/list', 'process', 'Process', 'processes'),
  facetList('/risk/list', 'risk', 'Risk', 'risks'),
  facetList('/rule/list', 'rule', 'Rule', 'business rules'),
];
