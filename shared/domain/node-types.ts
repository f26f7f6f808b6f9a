/**
 * The node-type catalogue: for every nodeType, the `@type` a create payload carries, the facet it
 * belongs to, and the parent types it accepts. One table answers "may X live under Y?".
 *
 * Each type's kind (node-kinds/) holds what it has of its own: fields, rules, listed children.
 *
 * Hierarchy: library → ENVIRONMENT → first-level folders (DOCUMENT_SET, PROCESS_SET) and one system
 * root per facet that keeps its items under a root (created with the environment, `system: true`).
 */

import { ENTITY, ENVIRONMENT, PROCESS } from './node-kinds/containers.ts';
import { DOCUMENT } from './node-kinds/document.ts';
import { type NodeKind, PLAIN } from './node-kinds/kind.ts';
import { TASK } from './node-kinds/task.ts';

export type Facet =
  | 'environment'
  | 'process'
  | 'document'
  | 'glossary'
  | 'organization'
  | 'risk'
  | 'control'
  | 'rule'
  | 'capability'
  | 'performance'
  | 'masterData'
  | 'collaboration';

export interface NodeTypeDefinition {
  nodeType: string;
  /** What the type has of its own: fields, rules, listed children (PLAIN: nothing). */
  kind: NodeKind;
  /** `@type` of create and update payloads for this nodeType. */
  payloadType: string;
  facet: Facet;
  /** nodeTypes this one may be created under; empty for ENVIRONMENT (it sits under the library). */
  parents: readonly string[];
  /** System roots are created with their environment and cannot be created or deleted on their own. */
  systemRoot: boolean;
  description: string;
}

const define = (
  nodeType: string,
  payloadType: string,
  facet: Facet,
  parents: readonly string[],
  description: string,
  { systemRoot = false, kind = PLAIN }: { systemRoot?: boolean; kind?: NodeKind } = {},
): NodeTypeDefinition => ({ nodeType, payloadType, facet, parents, systemRoot, description, kind });

const SYSTEM_ROOT = { systemRoot: true };

const ORG_CONTAINERS = ['ORGANIZATION_ROOT', 'ORG_UNIT'] as const;

export const NODE_TYPES: readonly NodeTypeDefinition[] = [
  define(
    'ENVIRONMENT',
    'NodeElement',
    'environment',
    [],
    'An environment of the library (system administrators)',
    { kind: ENVIRONMENT },
  ),

  define(
    'GLOSSARY_ROOT',
    'NodeElement',
    'glossary',
    ['ENVIRONMENT'],
    'System root of glossary terms',
    SYSTEM_ROOT,
  ),
  define(
    'ORGANIZATION_ROOT',
    'NodeElement',
    'organization',
    ['ENVIRONMENT'],
    'System root of the organization',
    SYSTEM_ROOT,
  ),
  define('RISK_ROOT', 'NodeElement', 'risk', ['ENVIRONMENT'], 'System root of risks', SYSTEM_ROOT),
  define('CONTROL_ROOT', 'NodeElement', 'control', ['ENVIRONMENT'], 'System root of controls', SYSTEM_ROOT),
  define('RULE_ROOT', 'NodeElement', 'rule', ['ENVIRONMENT'], 'System root of rules', SYSTEM_ROOT),
  define(
    'CAPABILITY_ROOT',
    'NodeElement',
    'capability',
    ['ENVIRONMENT'],
    'System root of capabilities',
    SYSTEM_ROOT,
  ),
  define(
    'INDICATOR_ROOT',
    'NodeElement',
    'performance',
    ['ENVIRONMENT'],
    'System root of indicators',
    SYSTEM_ROOT,
  ),
  define(
    'MASTER_DATA_ROOT',
    'NodeElement',
    'masterData',
    ['ENVIRONMENT'],
    'System root of master data',
    SYSTEM_ROOT,
  ),
  define(
    'COLLABORATION_ROOT',
    'NodeElement',
    'collaboration',
    ['ENVIRONMENT'],
    'System root of posts',
    SYSTEM_ROOT,
  ),

  define('PROCESS_SET', 'NodeElement', 'process', ['ENVIRONMENT', 'PROCESS_SET'], 'Process folder'),
  define('PROCESS', 'Process', 'process', ['PROCESS_SET'], 'Process', { kind: PROCESS }),
  define('TASK', 'TaskNode', 'process', ['PROCESS'], 'Task of a process', { kind: TASK }),
  define('DOCUMENT_SET', 'NodeElement', 'document', ['ENVIRONMENT', 'DOCUMENT_SET'], 'Document folder'),
  define('DOCUMENT', 'Document', 'document', ['DOCUMENT_SET'], 'Document (URL or file)', { kind: DOCUMENT }),
  define('ORG_UNIT', 'OrgUnit', 'organization', ORG_CONTAINERS, 'Organizational unit'),
  define('ROLE', 'Role', 'organization', ORG_CONTAINERS, 'Role'),
  define('RESOURCE', 'Resource', 'organization', ORG_CONTAINERS, 'Resource'),
  define('ASSET', 'Asset', 'organization', ORG_CONTAINERS, 'Asset'),
  define('TERM', 'Term', 'glossary', ['GLOSSARY_ROOT'], 'Glossary term'),
  define('RULE', 'Rule', 'rule', ['RULE_ROOT'], 'Business rule'),
  define('RISK', 'Risk', 'risk', ['RISK_ROOT'], 'Risk'),
  define('CONTROL', 'Control', 'control', ['CONTROL_ROOT'], 'Control'),
  define('CAPABILITY', 'Capability', 'capability', ['CAPABILITY_ROOT', 'CAPABILITY'], 'Capability'),
  define('INDICATOR', 'Indicator', 'performance', ['INDICATOR_ROOT'], 'Performance indicator'),
  define('ENTITY', 'Entity', 'masterData', ['MASTER_DATA_ROOT'], 'Master-data entity', { kind: ENTITY }),
  define('ATTRIBUTE', 'Attribute', 'masterData', ['ENTITY'], 'Attribute of a master-data entity'),
  define('POST', 'Post', 'collaboration', ['COLLABORATION_ROOT', 'POST'], 'Collaboration post (or reply)'),
];

const byNodeType = new Map(NODE_TYPES.map((t) => [t.nodeType, t]));

export const NODE_TYPE_NAMES = NODE_TYPES.map((t) => t.nodeType);
export const CREATABLE_NODE_TYPES = NODE_TYPES.filter((t) => !t.systemRoot).map((t) => t.nodeType);
export const SYSTEM_ROOT_TYPES = NODE_TYPES.filter((t) => t.systemRoot);

export function nodeTypeDefinition(nodeType: string): NodeTypeDefinition | undefined {
  return byNodeType.get(nodeType);
}

/** The kind of a stored nodeType (every stored node has a catalogued type). */
export function kindOf(nodeType: string): NodeKind {
  const definition = byNodeType.get(nodeType);
  if (!definition) throw new Error(`nodeType ${nodeType} is not catalogued`);
  return definition.kind;
}

/** Every kind with fields of its own, once. */
export const KINDS: readonly NodeKind[] = [...new Set(NODE_TYPES.map((t) => t.kind))];

/** The name a system root gets in a new environment. */
export function systemRootName(definition: NodeTypeDefinition): string {
  return definition.description.replace(/^System root of /, '').replace(/^./, (c) => c.toUpperCase());
}
