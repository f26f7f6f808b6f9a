import { describe, expect, it } from 'vitest';
import { ValidationError } from '#shared/domain/errors.ts';
import { createNodePayloadSchema } from '#shared/domain/node-payloads.ts';
import { jsonPath, parseInput } from '#shared/http/validation.ts';

describe('jsonPath', () => {
  it('spells dotted names, bracketed indexes and quoted odd keys', () => {
    expect(jsonPath([])).toBe('$');
    expect(jsonPath(['parent', 'nodeId'])).toBe('$.parent.nodeId');
    expect(jsonPath(['edges', 0, 'x'])).toBe('$.edges[0].x');
    expect(jsonPath(['@type'])).toBe('$["@type"]');
  });
});

describe('parseInput', () => {
  const valid = {
    parent: { nodeId: 'a0000000-0000-4000-8000-000000000001' },
    '@type': 'NodeElement',
    nodeType: 'DOCUMENT_SET',
    name: 'x',
  };

  it('returns the parsed value when valid', () => {
    expect(parseInput(createNodePayloadSchema, valid, 'body')).toMatchObject({ name: 'x' });
  });

  it('throws a ValidationError naming location, path and rule of every problem', () => {
    const error = (() => {
      try {
        parseInput(createNodePayloadSchema, { ...valid, name: '   ', nodeType: undefined, extra: 1 }, 'body');
      } catch (e) {
        return e;
      }
    })() as ValidationError;
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.details.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ in: 'body', path: '$.name', message: 'must not be empty or blank' }),
        expect.objectContaining({ in: 'body', path: '$.nodeType', rule: 'required' }),
        expect.objectContaining({ in: 'body', path: '$.extra', rule: 'unrecognized_key' }),
      ]),
    );
  });
});
