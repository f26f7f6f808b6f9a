/**
 * The members of stored JSON found without parsing it (json-members.ts), against JSON.parse over any
 * object JSON.stringify writes: names and strings with quotes, backslashes, brackets and any Unicode.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pickMembers, topLevelMembers } from '#infra/local/json-members.ts';

// Any text (quotes, backslashes, brackets, lone surrogates, `__proto__`) as names and in the values.
const text = fc.string({ unit: 'binary', maxLength: 12 });
const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    text,
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    tie('object'),
  ),
  object: fc.dictionary(fc.oneof(text, fc.constantFrom('__proto__', 'a"b', 'c\\', '{[')), tie('value'), {
    maxKeys: 6,
  }),
})).object as fc.Arbitrary<Record<string, unknown>>;

describe('top-level members of stored JSON', () => {
  it('finds every member with its value as written, whatever the names and values hold', () => {
    fc.assert(
      fc.property(json, (object) => {
        const written = JSON.stringify(object);
        const members = topLevelMembers(written);
        expect([...members.keys()]).toEqual(Object.keys(JSON.parse(written)));
        for (const [name, member] of members) {
          expect(JSON.parse(`{${member}}`)).toEqual({ [name]: JSON.parse(written)[name] });
        }
      }),
      { numRuns: 500 },
    );
  });

  it('keeps the members named that the object has, and nothing else', () => {
    fc.assert(
      fc.property(json, fc.array(text, { maxLength: 4 }), (object, extra) => {
        const written = JSON.stringify(object);
        const whole = JSON.parse(written) as Record<string, unknown>;
        const names = [...Object.keys(whole).filter((_, i) => i % 2 === 0), ...extra];
        const expected = Object.fromEntries(
          [...new Set(names)].filter((name) => Object.hasOwn(whole, name)).map((name) => [name, whole[name]]),
        );
        expect(JSON.parse(pickMembers(written, [...new Set(names)]))).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });
});
