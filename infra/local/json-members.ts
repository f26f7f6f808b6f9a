/**
 * The top-level members of a JSON object's text, found without parsing their values: a projection of a
 * stored item keeps some of them as they are written (parsing each item and writing it again cost a list
 * page's 50 objects about as much as the bytes the projection spares the SDK). The text must be as
 * JSON.stringify writes it (no whitespace), as the store keeps every item.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/** The index of the quote that closes the string opened at `open`. */
function closingQuote(text: string, open: number): number {
  let from = open + 1;
  for (;;) {
    const quote = text.indexOf('"', from);
    if (quote < 0) throw new Error('unterminated string in stored JSON');
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
    // An even run of backslashes escapes itself, not the quote.
    if (backslashes % 2 === 0) return quote;
    from = quote + 1;
  }
}

/** The index just after the value that starts at `start`. */
function valueEnd(text: string, start: number): number {
  const first = text.charCodeAt(start);
  if (first === QUOTE) return closingQuote(text, start) + 1;
  if (first === OPEN_BRACE || first === OPEN_BRACKET) {
    let depth = 0;
    for (let i = start; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === QUOTE) i = closingQuote(text, i);
      else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
      else if ((c === CLOSE_BRACE || c === CLOSE_BRACKET) && --depth === 0) return i + 1;
    }
    throw new Error('unterminated object or array in stored JSON');
  }
  // A number, true, false or null: up to the comma or bracket after it.
  let i = start;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === COMMA || c === CLOSE_BRACE || c === CLOSE_BRACKET) break;
    i++;
  }
  return i;
}

/** Each top-level member of the object `text`, by name: its `"name":value` text as written. */
export function topLevelMembers(text: string): Map<string, string> {
  const members = new Map<string, string>();
  if (text.charCodeAt(0) !== OPEN_BRACE) throw new Error('stored JSON is not an object');
  let at = 1;
  while (at < text.length && text.charCodeAt(at) !== CLOSE_BRACE) {
    const nameEnd = closingQuote(text, at);
    const raw = text.slice(at + 1, nameEnd);
    const name = raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
    // The value starts after the colon.
    const end = valueEnd(text, nameEnd + 2);
    members.set(name, text.slice(at, end));
    at = text.charCodeAt(end) === COMMA ? end + 1 : end;
  }
  return members;
}

/** The object `text` with only the named members it has, in the order named. */
export function pickMembers(text: string, names: readonly string[]): string {
  const members = topLevelMembers(text);
  const kept: string[] = [];
  for (const name of names) {
    const member = members.get(name);
    if (member !== undefined) kept.push(member);
  }
  return `{${kept.join(',')}}`;
}
