import { describe, expect, it } from 'vitest';
import { nodeSchema } from '#shared/domain/node.ts';
import { KINDS, NODE_TYPES, nodeTypeDefinition, systemRootName } from '#shared/domain/node-types.ts';

describe('node-type catalogue', () => {
  it('covers every object type of spec §1 and the §2.5 values', () => {
    for (const nodeType of [
      'ENVIRONMENT',
      'PROCESS_SET',
      'PROCESS',
      'TASK',
      'DOCUMENT_SET',
      'DOCUMENT',
      'ROLE',
      'ORG_UNIT',
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
    ]) {
      expect(nodeTypeDefinition(nodeType), nodeType).toBeDefined();
    }
  });

  it('names only catalogued parents, and every non-environment type has one', () => {
    for (const type of NODE_TYPES) {
      for (const parent of type.parents)
        expect(nodeTypeDefinition(parent), `${type.nodeType} → ${parent}`).toBeDefined();
      expect(type.parents.length > 0 || type.nodeType === 'ENVIRONMENT').toBe(true);
    }
  });

  it('uses the spec’s @type values for folders, processes, documents and tasks', () => {
    expect(nodeTypeDefinition('DOCUMENT_SET')?.payloadType).toBe('NodeElement');
    expect(nodeTypeDefinition('PROCESS')?.payloadType).toBe('Process');
    expect(nodeTypeDefinition('DOCUMENT')?.payloadType).toBe('Document');
    expect(nodeTypeDefinition('TASK')?.payloadType).toBe('TaskNode');
  });

  it('keeps one system root per facet that keeps its items under a root, all directly under the environment', () => {
    const roots = NODE_TYPES.filter((t) => t.systemRoot);
    expect(new Set(roots.map((r) => r.facet)).size).toBe(roots.length);
    expect(roots.map((r) => r.facet).sort()).toEqual(
      [
        'capability',
        'collaboration',
        'control',
        'glossary',
        'masterData',
        'organization',
        'performance',
        'risk',
        'rule',
      ].sort(),
    );
    for (const root of roots) expect(root.parents).toEqual(['ENVIRONMENT']);
    expect(systemRootName(nodeTypeDefinition('GLOSSARY_ROOT') as never)).toBe('Glossary terms');
  });

  it('gives kinds fields of their own that no other kind and no common node field uses', () => {
    const common = new Set(Object.keys(nodeSchema.shape));
    const seen = new Set<string>();
    for (const kind of KINDS) {
      for (const name of kind.fieldNames) {
        expect(common.has(name), name).toBe(false);
        expect(seen.has(name), name).toBe(false);
        seen.add(name);
      }
    }
    expect(nodeTypeDefinition('DOCUMENT')?.kind.fieldNames).toEqual(['documentType', 'url', 'fileInfo']);
  });
});
