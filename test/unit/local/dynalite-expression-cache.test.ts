/**
 * dynalite's expression parses, kept and replayed (dynalite-expression-cache.ts), against its parsers as
 * they come: for any expressions, names and values, the same trees, the same errors (undefined or unused
 * names and values, type checks, BETWEEN's bounds), also when the same expressions were parsed before
 * with other values of the same types.
 */
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import '#infra/local/dynalite-in-process.ts';

const require = createRequire(import.meta.url);
const validations = require('dynalite/validations') as {
  validateExpressions(data: Record<string, unknown>): string | undefined;
};
const PARSERS = ['conditionParser', 'updateParser', 'projectionParser'];
const modules = PARSERS.map((name) => require(`dynalite/db/${name}`) as { parse: unknown });
const kept = modules.map((module) => module.parse);
/** The parsers as dynalite ships them: fresh copies of their modules. */
const shipped = PARSERS.map((name) => {
  const path = require.resolve(`dynalite/db/${name}`);
  const cached = require.cache[path];
  delete require.cache[path];
  const { parse } = require(path) as { parse: unknown };
  require.cache[path] = cached;
  return parse;
});

/** What dynalite's validation makes of `data`: its error, or the parsed expressions it keeps. */
function validated(data: Record<string, unknown>, parsers: unknown[]) {
  modules.forEach((module, i) => {
    module.parse = parsers[i];
  });
  try {
    const copy = structuredClone(data);
    const error = validations.validateExpressions(copy);
    const { _updates, _condition, _keyCondition, _filter, _projection } = copy;
    return error ?? { _updates, _condition, _keyCondition, _filter, _projection };
  } finally {
    modules.forEach((module, i) => {
      module.parse = kept[i];
    });
  }
}

const NAMES = { '#a': 'a', '#b': 'b', '#c': 'count', '#l': 'l', '#pk': 'PK', '#sk': 'SK' };
const STRINGS = ['x', 'B', 'N', 'S', 'zzz', 'a'];
const NUMBERS = ['1', '2', '-3.5', '100'];
const value = fc.oneof(
  fc.constantFrom(...STRINGS).map((S) => ({ S })),
  fc.constantFrom(...NUMBERS).map((N) => ({ N })),
  fc.boolean().map((BOOL) => ({ BOOL })),
  fc.constant({ NULL: true }),
  fc.constant({ L: [{ S: 'x' }] }),
  fc.constant({ SS: ['a', 'b'] }),
);
/** The `pick`th other value of the same type (so a kept parse is replayed for it, or not when it must not be). */
const otherOfType = (v: Record<string, unknown>, pick: number): Record<string, unknown> => {
  if ('S' in v) return { S: STRINGS[pick % STRINGS.length] };
  if ('N' in v) return { N: NUMBERS[pick % NUMBERS.length] };
  if ('BOOL' in v) return { BOOL: pick % 2 === 0 };
  if ('L' in v) return { L: [{ N: String(pick) }] };
  if ('SS' in v) return { SS: [`s${pick}`] };
  return v;
};

const expressions = fc.record(
  {
    UpdateExpression: fc.constantFrom(
      'SET #a = :v1',
      'ADD #c :v1',
      'SET #a = :v1, #b = :v2 REMOVE #l',
      'SET #l = list_append(#l, :v1)',
      'SET #a = :v1, #a = :v2',
    ),
    ConditionExpression: fc.constantFrom(
      'attribute_not_exists(#pk)',
      '#a = :v1 AND #b <> :v2',
      'begins_with(#a, :v1)',
      'attribute_type(#a, :v1)',
      '#a BETWEEN :v1 AND :v2',
      'size(#a) > :v1',
      'NOT (#a = :v1) OR contains(#b, :v2)',
      '((#a = :v1))',
      'name = :v1',
    ),
    KeyConditionExpression: fc.constantFrom(
      '#pk = :v1',
      '#pk = :v1 AND begins_with(#sk, :v2)',
      '#pk = :v1 AND #sk BETWEEN :v2 AND :v3',
    ),
    FilterExpression: fc.constantFrom('#a IN (:v1, :v2)', 'attribute_exists(#b.c[0])', '#a < :v3'),
    ProjectionExpression: fc.constantFrom('#a, #b.c[0]', '#l[1]'),
  },
  { requiredKeys: [] },
);

const request = fc
  .record({
    expressions,
    names: fc.subarray(Object.keys(NAMES)),
    values: fc.record({ ':v1': value, ':v2': value, ':v3': value }, { requiredKeys: [] }),
  })
  .map(({ expressions, names, values }) => ({
    ...expressions,
    ...(names.length > 0
      ? {
          ExpressionAttributeNames: Object.fromEntries(names.map((n) => [n, NAMES[n as keyof typeof NAMES]])),
        }
      : {}),
    ...(Object.keys(values).length > 0 ? { ExpressionAttributeValues: values } : {}),
  }));

describe('kept expression parses', () => {
  it('give what the shipped parsers give, for any expressions, names and values', () => {
    fc.assert(
      fc.property(request, (data) => {
        expect(validated(data, kept)).toEqual(validated(data, shipped));
      }),
      { numRuns: 500 },
    );
  });

  it('give the same after the same expressions were parsed with other values of the same types', () => {
    fc.assert(
      fc.property(request, fc.nat(), (data, pick) => {
        const values = data.ExpressionAttributeValues as Record<string, Record<string, unknown>> | undefined;
        const before = {
          ...data,
          ...(values
            ? {
                ExpressionAttributeValues: Object.fromEntries(
                  Object.entries(values).map(([k, v], i) => [k, otherOfType(v, pick + i)]),
                ),
              }
            : {}),
        };
        validated(before, kept);
        expect(validated(data, kept)).toEqual(validated(data, shipped));
      }),
      { numRuns: 1500 },
    );
  });

  it('put this call’s values in a replayed tree, not the first call’s', () => {
    const data = (v: string) => ({
      ConditionExpression: '#a = :v1',
      ExpressionAttributeNames: { '#a': 'a' },
      ExpressionAttributeValues: { ':v1': { S: v } },
    });
    validated(data('first'), kept);
    const replayed = validated(data('second'), kept) as { _condition: unknown };
    expect(JSON.stringify(replayed._condition)).toContain('second');
    expect(JSON.stringify(replayed._condition)).not.toContain('first');
  });
});
