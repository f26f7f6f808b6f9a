import { describe, expect, it } from 'vitest';
import {
  etagOf,
  FIRST_VERSION,
  newId,
  nextMajorVersion,
  nextMinorVersion,
  timestamp,
  toBaseElement,
} from '#shared/domain/node.ts';
import { toDetailedElement } from '#shared/domain/node-elements.ts';
import { sampleNode } from '../../fixtures/nodes.ts';

describe('versions', () => {
  it('start at 0.0001 and move the minor part by one per write', () => {
    expect(FIRST_VERSION).toBe('0.0001');
    expect(nextMinorVersion('0.0001')).toBe('0.0002');
    expect(nextMinorVersion('0.0999')).toBe('0.1000');
    expect(nextMinorVersion('1.0000')).toBe('1.0001');
  });

  it('publishing moves to the next major version', () => {
    expect(nextMajorVersion('0.0007')).toBe('1.0000');
    expect(nextMajorVersion('1.0003')).toBe('2.0000');
  });

  it('stay at <major>.9999 until the next publish: the format holds four digits', () => {
    expect(nextMinorVersion('0.9998')).toBe('0.9999');
    expect(nextMinorVersion('0.9999')).toBe('0.9999');
    expect(nextMinorVersion('3.9999')).toBe('3.9999');
    expect(nextMajorVersion('0.9999')).toBe('1.0000');
  });

  it('refuses malformed stored versions', () => {
    expect(() => nextMinorVersion('1.2')).toThrow(/not <major>.<minor4>/);
  });
});

describe('identifiers and timestamps', () => {
  it('ids are upper-case UUIDs; timestamps carry milliseconds and Z', () => {
    expect(newId()).toMatch(/^[0-9A-F]{8}-[0-9A-F]{4}-4[0-9A-F]{3}-[89AB][0-9A-F]{3}-[0-9A-F]{12}$/);
    expect(timestamp(new Date(Date.UTC(2026, 10, 22, 1, 2, 3, 4)))).toBe('2026-11-22T01:02:03.004Z');
  });

  it('the ETag is the weak form of the version id', () => {
    expect(etagOf(sampleNode())).toBe('W/"B0000000-0000-4000-8000-000000000001"');
  });
});

describe('representations', () => {
  it('BaseElement carries exactly the spec §2.1 fields', () => {
    expect(Object.keys(toBaseElement(sampleNode())).sort()).toEqual(
      [
        '@type',
        'nodeId',
        'nodeVersionId',
        'nodeType',
        'name',
        'version',
        'creationDate',
        'modificationDate',
        'nodeStatus',
        'publishedNodeVersionId',
        'nodeSubType',
        'nodeSubTypeName',
        'userNodeSubType',
        'extensions',
        'deleted',
        'system',
        'locked',
        'favorite',
        'referenceNumber',
      ].sort(),
    );
  });

  it('the detailed form adds the parent and, for documents, the document fields', () => {
    expect(toDetailedElement(sampleNode(), true)).toMatchObject({
      parent: { nodeId: 'C0000000-0000-4000-8000-000000000001' },
      documentType: 'URL',
      url: 'https://example.com/travel',
    });
    const folder = toDetailedElement(sampleNode({ nodeType: 'DOCUMENT_SET', fields: {} }), true);
    expect(folder).not.toHaveProperty('url');
    expect(toDetailedElement(sampleNode({ parentId: null }), true).parent).toBeNull();
    // A parent the caller may not read is null, as in every view.
    expect(toDetailedElement(sampleNode(), false).parent).toBeNull();
  });
});
