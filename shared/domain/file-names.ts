/**
 * How an uploaded file is named and served. The uploader chooses the name and the declared type, so both
 * are hostile input: the name must not climb out of a folder, hide its real extension or break a header,
 * and the type must never let a browser run the file as a page or script from our origin. (The download's
 * Content-Disposition is attachment-disposition.ts, apart: only downloads load its library.)
 */
const MAX_NAME_CODE_POINTS = 255;
/** An extension kept when a long name is cut: the dot and up to 15 more characters, no spaces. */
const KEPT_EXTENSION = /\.[^.\s]{1,15}$/u;

/**
 * Characters removed from names: C0 and C1 controls and DEL; bidirectional controls and invisible marks,
 * which can make `invoice\u202Egpj.exe` display as `invoiceexe.jpg`; line and paragraph separators, which
 * break lines wherever the name is shown; and lone surrogates, which no UTF-8 store or header can carry.
 * (\p{Cc} is C0, DEL and C1; with the u flag \p{Cs} matches only lone surrogates, a pair being one code point.)
 */
const FORBIDDEN =
  /[\p{Cc}\p{Cs}\u061C\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\u2028\u2029\uFEFF]/gu;

/** Device names Windows will not open as files, alone or before an extension (`nul.tar.gz`). */
const WINDOWS_RESERVED = /^(CON|PRN|AUX|NUL|CONIN\$|CONOUT\$|COM[0-9¹²³]|LPT[0-9¹²³])\s*(\.|$)/iu;

/** Windows drops trailing dots and spaces, so `evil.exe.` would open as `evil.exe`; we drop them first. */
const tidy = (name: string): string => name.trim().replace(/[.\s]+$/u, '');

/** At most 255 code points (never half a surrogate pair), keeping a short extension when the name is cut. */
function capped(name: string): string {
  const codePoints = Array.from(name);
  if (codePoints.length <= MAX_NAME_CODE_POINTS) return name;
  const extension = KEPT_EXTENSION.exec(name)?.[0] ?? '';
  const room = MAX_NAME_CODE_POINTS - Array.from(extension).length;
  const stem = tidy(codePoints.slice(0, room).join('')) || 'file';
  return `${stem}${extension}`;
}

/**
 * A multipart form sends every line break of a value as CRLF (the HTML form encoding), where the query
 * keeps it as it was: both are taken as LF, so a file name with a line break is one name either way (and
 * the fileInfo.name that repeats it too).
 */
export const lineBreaksAsLf = (value: string) => value.replace(/\r\n?/g, '\n');

/** The name a file is stored and shown under. */
export function storedFileName(raw: string): string {
  // Removal before NFC: a removed mark can leave a letter and its accent side by side, to be composed.
  const cleaned = raw.replace(FORBIDDEN, '').normalize('NFC');
  const lastSegment = cleaned.split(/[/\\]/).pop() ?? '';
  const name = tidy(lastSegment) || 'file';
  return tidy(capped(WINDOWS_RESERVED.test(name) ? `_${name}` : name)) || 'file';
}

const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const QUOTED = '"(?:[\\t\\x20-\\x21\\x23-\\x5B\\x5D-\\x7E]|\\\\[\\t\\x20-\\x7E])*"';
const ESSENCE = new RegExp(`^(${TOKEN})/(${TOKEN})`, 'y');
// RFC 9110 allows empty parameters (`text/plain;`).
const PARAMETER = new RegExp(`[ \\t]*;[ \\t]*(?:(${TOKEN})=(${TOKEN}|${QUOTED}))?`, 'y');
const MAX_MEDIA_TYPE_LENGTH = 255;

export interface MediaType {
  /** `type/subtype`, lower-cased. */
  essence: string;
  /** Parameter names lower-cased, quoted values unquoted. */
  parameters: ReadonlyMap<string, string>;
}

/**
 * A media type as RFC 9110 writes it (`application/vnd.foo+xml; charset=utf-8`), or null when it is not
 * one, longer than 255 characters, or names a parameter twice (which value a browser would pick is unknown).
 */
export function parseMediaType(value: string): MediaType | null {
  if (value.length > MAX_MEDIA_TYPE_LENGTH) return null;
  ESSENCE.lastIndex = 0;
  const essence = ESSENCE.exec(value);
  if (!essence) return null;
  const parameters = new Map<string, string>();
  PARAMETER.lastIndex = ESSENCE.lastIndex;
  let end = ESSENCE.lastIndex;
  for (let match = PARAMETER.exec(value); match; match = PARAMETER.exec(value)) {
    end = PARAMETER.lastIndex;
    const [, rawName, rawValue = ''] = match;
    if (rawName === undefined) continue;
    const name = rawName.toLowerCase();
    if (parameters.has(name)) return null;
    parameters.set(
      name,
      rawValue.startsWith('"') ? rawValue.slice(1, -1).replace(/\\(.)/gu, '$1') : rawValue,
    );
  }
  if (!/^[ \t]*$/.test(value.slice(end))) return null;
  return { essence: `${essence[1]}/${essence[2]}`.toLowerCase(), parameters };
}

/**
 * Types served as declared: ones a browser shows, plays or hands to another program, but never runs as a
 * page or script. `text` ones keep their charset. HTML, SVG, XML and JavaScript are missing on purpose: each
 * can run script in our origin if a browser ever renders it.
 */
const SERVABLE_TYPES: ReadonlyMap<string, 'text' | 'binary'> = new Map([
  ['text/plain', 'text'],
  ['text/csv', 'text'],
  ...(
    [
      'image/png',
      'image/jpeg',
      'image/gif',
      'image/webp',
      'image/avif',
      'image/bmp',
      'application/pdf',
      'audio/mpeg',
      'audio/mp4',
      'audio/aac',
      'audio/ogg',
      'audio/wav',
      'audio/webm',
      'audio/flac',
      'video/mp4',
      'video/webm',
      'video/ogg',
      'video/quicktime',
      'application/zip',
      'application/gzip',
      'application/msword',
      'application/vnd.ms-excel',
      'application/vnd.ms-powerpoint',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'application/vnd.openxmlformats-officedocument.presentationml.presentation',
      'application/vnd.oasis.opendocument.text',
      'application/vnd.oasis.opendocument.spreadsheet',
      'application/vnd.oasis.opendocument.presentation',
    ] as const
  ).map((essence) => [essence, 'binary'] as const),
]);

const OPAQUE = 'application/octet-stream';
const CHARSET = new RegExp(`^${TOKEN}$`);

/** The Content-Type a download is served with: the declared type when it is safe, else octet-stream. */
export function servingContentType(declared: string | null | undefined): string {
  const parsed = declared ? parseMediaType(declared.trim()) : null;
  const kind = parsed && SERVABLE_TYPES.get(parsed.essence);
  if (!parsed || !kind) return OPAQUE;
  const charset = parsed.parameters.get('charset');
  return kind === 'text' && charset && CHARSET.test(charset)
    ? `${parsed.essence}; charset=${charset.toLowerCase()}`
    : parsed.essence;
}

/** Headers every file download carries. */
export const DOWNLOAD_SAFETY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  // Browsers must not guess a type (a text file that looks like HTML stays text).
  'x-content-type-options': 'nosniff',
  // Should a browser render the file anyway (an old one, a PDF viewer), it loads nothing, runs no script,
  // gets a unique origin, and cannot be framed by another site (default-src does not cover frame-ancestors).
  'content-security-policy': "default-src 'none'; sandbox; frame-ancestors 'none'",
  'cross-origin-resource-policy': 'same-origin',
  // no-cache, not no-store: the browser may keep a copy but asks us before each use, so a revoked grant
  // takes effect at once, and an unchanged file can be answered 304 instead of sent again. no-store would
  // protect little: an attachment lands in the user's downloads folder anyway. private keeps shared caches
  // out; no-transform keeps proxies from recompressing bytes whose sha256 we publish.
  'cache-control': 'private, no-cache, no-transform',
  'referrer-policy': 'no-referrer',
});
