/**
 * The text of an XML body, in the encoding it is written in. As XML 1.0 (§4.3.3, appendix F) and RFC 7303
 * (§3.2, 8.1) have it, that is the byte order mark's, else the Content-Type's charset, else the one the XML
 * declaration names, else UTF-8; each read by TextDecoder, which knows the WHATWG Encoding Standard's
 * encodings and names (those of browsers: ISO-8859-x, windows-125x, Shift_JIS, GBK, …, not UTF-7 or EBCDIC).
 */
import { TextDecoder } from 'node:util';
import {
  bodyError,
  headerError,
  UnreadableError,
  UnsupportedMediaTypeError,
  ValidationError,
} from '#shared/domain/errors.ts';
import { parseMediaType } from '#shared/domain/file-names.ts';

const BYTE_ORDER_MARKS: [number[], string][] = [
  [[0xef, 0xbb, 0xbf], 'utf-8'],
  [[0xff, 0xfe], 'utf-16le'],
  [[0xfe, 0xff], 'utf-16be'],
];

/** The encoding an XML declaration at the start names (XML 1.0 §2.8, §4.3.3: VersionInfo, then EncodingDecl). */
const DECLARED =
  /^<\?xml[ \t\r\n]+version[ \t\r\n]*=[ \t\r\n]*(["'])[^"']*\1[ \t\r\n]+encoding[ \t\r\n]*=[ \t\r\n]*(["'])([A-Za-z][A-Za-z0-9._-]*)\2/;

type Source =
  | 'its byte order mark'
  | 'the charset of its Content-Type'
  | 'its XML declaration'
  | 'the default';

function encodingOf(bytes: Uint8Array, contentType: string | undefined): { label: string; from: Source } {
  for (const [mark, label] of BYTE_ORDER_MARKS) {
    if (mark.every((byte, at) => bytes[at] === byte)) return { label, from: 'its byte order mark' };
  }
  const parsed = contentType === undefined ? undefined : parseMediaType(contentType);
  // A type that cannot be read (a parameter twice, an open quote) may name any charset: none is known.
  const charset =
    parsed === null && /charset/i.test(contentType ?? '')
      ? '(unreadable)'
      : parsed?.parameters.get('charset');
  if (charset !== undefined) return { label: charset, from: 'the charset of its Content-Type' };
  // The declaration is ASCII in every encoding it can name without a byte order mark.
  const declared = DECLARED.exec(Buffer.from(bytes.subarray(0, 512)).toString('latin1'))?.[3];
  if (declared === undefined) return { label: 'utf-8', from: 'the default' };
  // A file whose declaration reads as ASCII is not UTF-16 whatever it says (WHATWG's rule for HTML too).
  return { label: /^utf-16(?:[bl]e)?$/i.test(declared) ? 'utf-8' : declared, from: 'its XML declaration' };
}

/**
 * What windows-1252 (the Encoding Standard's reading of ISO-8859-1 and Latin-1 too) has at bytes 0x80–0x9F:
 * the euro sign, curly quotes, dashes and the like. Node 20's TextDecoder gives the C1 control characters
 * of the same numbers instead (nodejs/node#56542); a decoder that gets them right leaves none of these
 * but the five bytes the encoding leaves undefined, which stand for themselves.
 */
const WINDOWS_1252_HIGH = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d,
  0x17d, 0x8f, 0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a,
  0x153, 0x9d, 0x17e, 0x178,
];
const withWindows1252Punctuation = (text: string) =>
  text.replace(/[\u0080-\u009f]/g, (c) =>
    String.fromCodePoint(WINDOWS_1252_HIGH[c.charCodeAt(0) - 0x80] ?? 0xfffd),
  );

/**
 * Refuses an encoding TextDecoder does not know, naming it: a Content-Type's charset with a 415, as a
 * charset other than UTF-8 on a JSON body; an XML declaration's with a 400 (rule xml_encoding). Bytes
 * that are not valid in the encoding are a MALFORMED_XML, as a body that is not UTF-8 was.
 */
export function xmlText(bytes: Uint8Array, contentType: string | undefined): string {
  const { label, from } = encodingOf(bytes, contentType);
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(label, { fatal: true });
  } catch {
    const named = JSON.stringify(label.slice(0, 40));
    if (from === 'the charset of its Content-Type') {
      throw new UnsupportedMediaTypeError(
        `The body's charset ${named} is not one this API reads: send it as UTF-8, with charset=utf-8 or none`,
        headerError('Content-Type', 'charset', `names the charset ${named}, which this API does not read`),
      );
    }
    throw new ValidationError([
      bodyError(
        '$',
        'xml_encoding',
        `declares the encoding ${named}, which this API does not read: send it as UTF-8`,
      ),
    ]);
  }
  try {
    const text = decoder.decode(bytes);
    return decoder.encoding === 'windows-1252' ? withWindows1252Punctuation(text) : text;
  } catch {
    const name = decoder.encoding === 'utf-8' ? 'UTF-8' : decoder.encoding;
    throw new UnreadableError(
      'MALFORMED_XML',
      from === 'the default'
        ? `The body is not valid ${name}`
        : `The body is not valid ${name}, named by ${from}`,
    );
  }
}
