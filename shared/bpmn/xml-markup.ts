/**
 * A look at an XML text's markup before any parser sees it: its tags and declarations, in order, passing
 * over what only looks like markup (comments, CDATA sections, processing instructions, attribute values).
 * Not a parser: it finds what the refusals need (how deep elements nest, whether there is a declaration)
 * in one pass without building anything, and leaves judging well-formedness to the parser.
 */

export type MarkupKind = 'start' | 'end' | 'empty' | 'declaration';

/** Calls `visit` with each start tag, end tag, empty-element tag and `<!` declaration (a DOCTYPE, an ENTITY, …). */
export function scanMarkup(xml: string, visit: (kind: MarkupKind) => void): void {
  const skipTo = (from: number, close: string) => {
    const end = xml.indexOf(close, from);
    return end === -1 ? xml.length : end + close.length;
  };
  let at = xml.indexOf('<');
  while (at !== -1) {
    if (xml.startsWith('<!--', at)) at = skipTo(at + 4, '-->');
    else if (xml.startsWith('<![CDATA[', at)) at = skipTo(at + 9, ']]>');
    else if (xml.startsWith('<?', at)) at = skipTo(at + 2, '?>');
    else if (xml.startsWith('<!', at)) {
      visit('declaration');
      at += 2;
    } else if (xml.startsWith('</', at)) {
      visit('end');
      at = skipTo(at + 2, '>');
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
      visit(xml[end - 1] === '/' ? 'empty' : 'start');
      at = end + 1;
    }
    at = xml.indexOf('<', at);
  }
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
