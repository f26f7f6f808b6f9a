import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { positiveIntParam } from '#shared/api/params.ts';
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

describe('count parameters', () => {
  const pageSize = z.object({ pageSize: positiveIntParam(1000) });
  const errorsOf = (value: string) => {
    try {
      parseInput(pageSize, { pageSize: value }, 'query');
      return [];
    } catch (error) {
      return (error as ValidationError).details.errors?.map((e) => `${e.rule}: ${e.message}`);
    }
  };

  it('parse decimal counts within bounds, and name the one rule anything else breaks', () => {
    expect(parseInput(pageSize, { pageSize: '1000' }, 'query')).toEqual({ pageSize: 1000 });
    expect(errorsOf('abc')).toEqual(['invalid_format: must be a positive integer']);
    expect(errorsOf('0')).toEqual(['invalid_format: must be a positive integer']);
    expect(errorsOf('-5')).toEqual(['invalid_format: must be a positive integer']);
    expect(errorsOf('1001')).toEqual(['maximum: must be at most 1000']);
    expect(errorsOf('99999999999999999999')).toEqual(['maximum: must be at most 1000']);
  });
});
