import { describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { isBlankName, objectNameSchema } from '#shared/domain/schema-parts.ts';

describe('a blank name', () => {
  it('is one that shows as nothing, however it is written', () => {
    for (const name of [
      '   ',
      '\u200b\u00a0',
      '\u3164\u3164', // Hangul filler
      '\u115f\u1160\uffa0', // Hangul choseong, jungseong and halfwidth fillers
      '\u2800', // blank braille pattern
      '\ufe0f\u034f', // a variation selector, a combining grapheme joiner
      '\u{e0041}\u{e0042}', // tag characters
    ]) {
      expect(isBlankName(name), JSON.stringify(name)).toBe(true);
      const parsed = z.safeParse(objectNameSchema(255), name);
      expect(parsed.success, JSON.stringify(name)).toBe(false);
    }
  });

  it('is not one with anything visible in it', () => {
    for (const name of ['a', 'A\u3164B', '\u2801', 'Hangul \uac00', '\u2764\ufe0f', '0']) {
      expect(isBlankName(name), JSON.stringify(name)).toBe(false);
      expect(z.safeParse(objectNameSchema(255), name).success, JSON.stringify(name)).toBe(true);
    }
  });
});
