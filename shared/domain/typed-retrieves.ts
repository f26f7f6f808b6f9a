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

/** A per-type retrieve path; its parameter is the path's last segment. */
const retrieve = (path: string, nodeType: string, tag: string, label: string): TypedRetrieve => ({
  path,
  param: (/\{(\w+)\}$/.exec(path) as RegExpExecArray)[1] as string,
  nodeTypes: [nodeType],
  tag,
  label,
});

export const TYPED_RETRIEVES: readonly TypedRetrieve[] = [
  retrieve('/capabiltity/capabilities/{capabilityId}', 'CAPABILITY', 'Capability', 'capability'),
  retrieve('/collaboration/posts/{postId}', 'POST', 'Collaboration', 'collaboration post'),
  retrieve('/control/controls/{controlId}', 'CONTROL', 'Control', 'control'),
  retrieve('/document/documents/{documentId}', 'DOCUMENT', 'Document', 'document'),
  retrieve('/glossary/tems/{termId}', 'TERM', 'Glossary', 'glossary term'),
  retrieve('/masterData/attributes/{attributeId}', 'ATTRIBUTE', 'Master data', 'master-data attribute'),
  retrieve('/masterData/entities/{entityId}', 'ENTITY', 'Master data', 'master-data entity'),
  retrieve('/organization/assets/{assetId}', 'ASSET', 'Organization', 'asset'),
  retrieve('/organization/resources/{resourceId}', 'RESOURCE', 'Organization', 'resource'),
  retrieve('/organization/roles/{roleId}', 'ROLE', 'Organization', 'role'),
  retrieve('/performances/indicators/{indicatorId}', 'INDICATOR', 'Performance', 'performance indicator'),
  retrieve('/process/processes/{processId}', 'PROCESS', 'Process', 'process'),
  retrieve('/risk/risks/{riskId}', 'RISK', 'Risk', 'risk'),
  retrieve('/rule/rules/{ruleId}', 'RULE', 'Rule', 'business rule'),
];
