/**
 * The per-type retrieve paths of spec §4.4, spelled exactly as published (`capabiltity`, `tems`), each
 * with the nodeTypes it answers and the tag of its object type in the reference.
 */
export interface TypedRetrieve {
  /** Path under /api/v1. */
  path: string;
  param: string;
  nodeTypes: readonly string[];
  tag: string;
  label: string;
}

export const TYPED_RETRIEVES: readonly TypedRetrieve[] = [
  {
    path: '/capabiltity/capabilities/{capabilityId}',
    param: 'capabilityId',
    nodeTypes: ['CAPABILITY'],
    tag: 'Capability',
    label: 'capability',
  },
  {
    path: '/collaboration/posts/{postId}',
    param: 'postId',
    nodeTypes: ['POST'],
    tag: 'Collaboration',
    label: 'collaboration post',
  },
  {
    path: '/control/controls/{controlId}',
    param: 'controlId',
    nodeTypes: ['CONTROL'],
    tag: 'Control',
    label: 'control',
  },
  {
    path: '/document/documents/{documentId}',
    param: 'documentId',
    nodeTypes: ['DOCUMENT'],
    tag: 'Document',
    label: 'document',
  },
  {
    path: '/glossary/tems/{termId}',
    param: 'termId',
    nodeTypes: ['TERM'],
    tag: 'Glossary',
    label: 'glossary term',
  },
  {
    path: '/masterData/attributes/{attributeId}',
    param: 'attributeId',
    nodeTypes: ['ATTRIBUTE'],
    tag: 'Master data',
    label: 'master-data attribute',
  },
  {
    path: '/masterData/entities/{entityId}',
    param: 'entityId',
    nodeTypes: ['ENTITY'],
    tag: 'Master data',
    label: 'master-data entity',
  },
  {
    path: '/organization/assets/{assetId}',
    param: 'assetId',
    nodeTypes: ['ASSET'],
    tag: 'Organization',
    label: 'asset',
  },
  {
    path: '/organization/resources/{resourceId}',
    param: 'resourceId',
    nodeTypes: ['RESOURCE'],
    tag: 'Organization',
    label: 'resource',
  },
  {
    path: '/organization/roles/{roleId}',
    param: 'roleId',
    nodeTypes: ['ROLE'],
    tag: 'Organization',
    label: 'role',
  },
  {
    path: '/performances/indicators/{indicatorId}',
    param: 'indicatorId',
    nodeTypes: ['INDICATOR'],
    tag: 'Performance',
    label: 'performance indicator',
  },
  {
    path: '/process/processes/{processId}',
    param: 'processId',
    nodeTypes: ['PROCESS'],
    tag: 'Process',
    label: 'process',
  },
  { path: '/risk/risks/{riskId}', param: 'riskId', nodeTypes: ['RISK'], tag: 'Risk', label: 'risk' },
  { path: '/rule/rules/{ruleId}', param: 'ruleId', nodeTypes: ['RULE'], tag: 'Rule', label: 'business rule' },
];
