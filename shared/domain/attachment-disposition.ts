/**
 * The Content-Disposition of a download (apart from file-names.ts so that only the functions that serve
 * files load the header library).
 */
import { create as contentDisposition } from 'content-disposition';
import { storedFileName } from './file-names.ts';

/**
 * The plain-ASCII `filename` for clients that ignore `filename*`: accents dropped, anything else outside
 * printable ASCII replaced, and `"`, `\` and `%` replaced too, as browsers disagree on unescaping them.
 */
const asciiFallback = (name: string): string =>
  name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\x20-\x7E]|["\\%]/gu, '_')
    // A name of combining marks alone (U+08CA) has no ASCII left: a browser still needs a name.
    .trim() || 'download';

/** Content-Disposition for a download: always an attachment, so a browser saves the file and never renders it. */
export function attachmentDisposition(name: string): string {
  const stored = storedFileName(name);
  // With a fallback different from the name, the library adds `filename*` (RFC 8187, UTF-8) for the real name.
  return contentDisposition(stored, { type: 'attachment', fallback: asciiFallback(stored) });
}
