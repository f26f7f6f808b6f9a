import { describe, expect, it } from 'vitest';
import { shortDescriptionOf, toListElement } from '#shared/domain/list-element.ts';
import { isWellFormedText } from '#shared/domain/well-formed-text.ts';
import { sampleNode } from '../../fixtures/nodes.ts';

describe('list elements', () => {
  it('derive a plain-text short description from the HTML description', () => {
    expect(shortDescriptionOf(null)).toBeNull();
    expect(shortDescriptionOf('<p> </p>')).toBeNull();
    expect(shortDescriptionOf('<p>Fish &amp; <b>chips</b>\n&lt;3</p>')).toBe('Fish & chips <3');
    expect(shortDescriptionOf(`<p>${'a'.repeat(300)}</p>`)).toHaveLength(200);
  });

  it('cut a short description between characters, read character references, and leave out scripts', () => {
    const cut = shortDescriptionOf(`<p>${'b'.repeat(198)}😀 tail</p>`) as string;
    expect(cut).toBe(`${'b'.repeat(198)}…`);
    expect(isWellFormedText(cut)).toBe(true);
    expect(shortDescriptionOf('<p>Caf&#233; &#x2013; &amp;#233; &#xD83D;</p>')).toBe(
      'Café – &#233; &#xD83D;',
    );
    expect(shortDescriptionOf('<script>alert(1)</script><style>p{}</style><p>Seen</p>')).toBe('Seen');
  });

  it('carry every §2.4 field with integer counts and the modifier name', () => {
    const element = toListElement(sampleNode({ richTextDescription: '<p>Hi</p>' }), null);
    expect(element).toMatchObject({
      '@type': 'ListElement',
      hasDescription: true,
      shortDescription: 'Hi',
      lastModifiedByName: 'Ann',
    });
    for (const count of [
      'documentCount',
      'relatedResourceCount',
      'roleCount',
      'relatedAssetCount',
      'orgUnitCount',
      'assetCount',
      'relatedRoleCount',
      'relatedOrgUnitCount',
      'resourceCount',
    ] as const) {
      expect(Number.isInteger(element[count])).toBe(true);
    }
    expect(element).not.toHaveProperty('editId');
  });
});
