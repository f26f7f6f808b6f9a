/**
 * A look at an XML text's markup before any parser sees it: its tags and declarations, in order, passing
 * over what only looks like markup (comments, CDATA sections, processing instructions, attribute values).
 * Not a parser: it finds what the refusals need (how deep elements nest, whether there is a declaration,
 * how an attribute is written, which references there are) in one pass without building anything, and
 * leaves judging the rest of well-formedness to the parser.
 */

export type MarkupKind = 'start' | 'end' | 'empty' | 'declaration' | 'text';

/**
 * Calls `visit` with each start tag, end tag, empty-element tag, `<!` declaration (a DOCTYPE, an ENTITY,
 * …) and the text between them, and where it is: `xml.slice(from, to)` is the whole tag (of a
 * declaration, its `<!`) or text. Comments, CDATA sections and processing instructions are neither.
 */
export function scanMarkup(xml: string, visit: (kind: MarkupKind, from: number, to: number) => void): void {
  const skipTo = (from: number, close: string) => {
    const end = xml.indexOf(close, from);
    return end === -1 ? xml.length : end + close.length;
  };
  let textFrom = 0;
  let at = xml.indexOf('<');
  while (at !== -1) {
    if (at > textFrom) visit('text', textFrom, at);
    if (xml.startsWith('<!--', at)) at = skipTo(at + 4, '-->');
    else if (xml.startsWith('<![CDATA[', at)) at = skipTo(at + 9, ']]>');
    else if (xml.startsWith('<?', at)) at = skipTo(at + 2, '?>');
    else if (xml.startsWith('<!', at)) {
      visit('declaration', at, at + 2);
      at += 2;
    } else if (xml.startsWith('</', at)) {
      const end = skipTo(at + 2, '>');
      visit('end', at, end);
      at = end;
    } else {
      // A start tag ends at the first `>` outside quotes: an attribute value may hold `>`.
      let end = at + 1;
      let quote = '';
      for (; end < xml.length; end += 1) {
        const char = xml[end];
        if (quote) {
          if (char === quote) quote = '';
        } else if (char === '"' || char === "'") quote = char;
        else if (char === '>') break;
      }
      visit(xml[end - 1] === '/' ? 'empty' : 'start', at, Math.min(end + 1, xml.length));
      at = end + 1;
    }
    textFrom = Math.min(at, xml.length);
    at = xml.indexOf('<', at);
  }
  if (xml.length > textFrom) visit('text', textFrom, xml.length);
}

/** How deep elements nest (the root element is at depth 1). */
export function nestingDepth(xml: string): number {
  let depth = 0;
  let deepest = 0;
  scanMarkup(xml, (kind) => {
    if (kind === 'start' || kind === 'empty') deepest = Math.max(deepest, depth + 1);
    if (kind === 'start') depth += 1;
    if (kind === 'end') depth -= 1;
  });
  return deepest;
}

/** The qualified name a start or empty-element tag opens with (`dc:Bounds` of `<dc:Bounds x="1"/>`). */
export function tagName(tag: string): string {
  return /^<([^\s/>]+)/.exec(tag)?.[1] ?? '';
}

/** A start or empty-element tag's attributes by qualified name, their values as written (not yet read). */
export function tagAttributes(tag: string): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const [, name, doubleQuoted, singleQuoted] of tag.matchAll(
    /\s([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g,
  )) {
    if (name && !attributes.has(name)) attributes.set(name, doubleQuoted ?? singleQuoted ?? '');
  }
  return attributes;
}

const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/**
 * An attribute value as XML reads it (XML 1.0 §3.3.3): line breaks and tabs written as such are spaces,
 * and the predefined entities and character references are the characters they stand for.
 */
export function attributeValue(written: string): string {
  return written
    .replace(/[\t\n\r]/g, ' ')
    .replace(/&(?:(amp|lt|gt|quot|apos)|#([0-9]+)|#x([0-9a-fA-F]+));/g, (reference, entity, decimal, hex) => {
      if (entity) return PREDEFINED[entity] ?? reference;
      const code = decimal ? Number.parseInt(decimal, 10) : Number.parseInt(hex, 16);
      return code <= 0x10ffff ? String.fromCodePoint(code) : reference;
    });
}

/** A character reference, decimal or hexadecimal. */
const CHARACTER_REFERENCE = /&#(?:x([0-9a-fA-F]+)|([0-9]+));/g;

/**
 * The text with each character reference beyond U+FFFF (`&#x1F600;`, an emoji) written as the character
 * itself, in text and tags (not in comments, CDATA sections or processing instructions, where it is text):
 * the parser decodes such a reference with String.fromCharCode, which keeps only its low 16 bits
 * (U+F600), and would change a valid file silently. Written out, the character reads as it should.
 */
export function writeSupplementaryReferences(xml: string): string {
  if (!/&#(?:x0*[1-9a-fA-F][0-9a-fA-F]{4,5}|0*[1-9][0-9]{4,6});/.test(xml)) return xml;
  return rewriteMarkup(xml, (kind, region) =>
    kind === 'declaration'
      ? region
      : region.replace(CHARACTER_REFERENCE, (reference, hex?: string, decimal?: string) => {
          const codePoint = hex !== undefined ? Number.parseInt(hex, 16) : Number(decimal);
          return codePoint > 0xffff && codePoint <= 0x10ffff ? String.fromCodePoint(codePoint) : reference;
        }),
  );
}

/**
 * The text with the literal white space inside its tags made spaces, as XML 1.0 §3.3.3 reads attribute
 * values (a line break or tab written in a value is a space; written as `&#10;` or `&#9;` it is kept).
 * The parser keeps them as written, so a name on two lines in a file would be a name with a line break
 * here and a name with a space in every other BPMN tool. Between attributes a space is as good as any.
 */
export function normalizeAttributeWhitespace(xml: string): string {
  if (!/[\t\r\n]/.test(xml)) return xml;
  return rewriteMarkup(xml, (kind, region) =>
    kind === 'start' || kind === 'empty' ? region.replace(/\r\n|[\t\n\r]/g, ' ') : region,
  );
}

/**
 * What the writer leaves literal and a reader would change, written as references: a tab or carriage
 * return in a tag (attribute values; a reader makes them spaces) and a carriage return in text (a reader
 * makes it a line feed). bpmn-moddle escapes only line feeds in attributes.
 */
export function escapeLiteralWhitespace(xml: string): string {
  if (!/[\t\r]/.test(xml)) return xml;
  return rewriteMarkup(xml, (kind, region) => {
    if (kind === 'start' || kind === 'empty') return region.replace(/\t/g, '&#9;').replace(/\r/g, '&#13;');
    return kind === 'text' ? region.replace(/\r/g, '&#13;') : region;
  });
}

/** The text with each tag and text between tags as `rewrite` gives it back (comments, CDATA and the like kept). */
function rewriteMarkup(xml: string, rewrite: (kind: MarkupKind, region: string) => string): string {
  const pieces: string[] = [];
  let copied = 0;
  scanMarkup(xml, (kind, from, to) => {
    const region = xml.slice(from, to);
    const written = rewrite(kind, region);
    if (written === region) return;
    pieces.push(xml.slice(copied, from), written);
    copied = to;
  });
  pieces.push(xml.slice(copied));
  return pieces.join('');
}
