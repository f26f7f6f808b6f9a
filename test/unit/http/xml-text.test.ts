/** An XML body is read in the encoding it is written in: byte order mark, charset, declaration, UTF-8. */
import { describe, expect, it } from 'vitest';
import {
  type DomainError,
  UnreadableError,
  UnsupportedMediaTypeError,
  ValidationError,
} from '#shared/domain/errors.ts';
import { xmlText } from '#shared/http/xml-text.ts';

const declared = (encoding: string) => `<?xml version="1.0" encoding="${encoding}"?>`;
const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(
    parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'latin1') : Buffer.from(part))),
  );
const E_ACUTE_UTF8 = [0xc3, 0xa9];

function failure(run: () => unknown): DomainError {
  try {
    run();
  } catch (error) {
    return error as DomainError;
  }
  throw new Error('expected a refusal');
}

describe('xmlText reads', () => {
  it('the encoding its XML declaration names', () => {
    // ISO-8859-1: the two bytes of UTF-8's é are two characters.
    const latin1 = declared('ISO-8859-1');
    expect(xmlText(bytes(latin1, '<a n="', E_ACUTE_UTF8, '"/>'), 'application/xml')).toBe(
      `${latin1}<a n="Ã©"/>`,
    );
    expect(xmlText(bytes(latin1, '<a n="', [0xe9], '"/>'), undefined)).toBe(`${latin1}<a n="é"/>`);
    const sjis = `<?xml version='1.0'  encoding = 'Shift_JIS' standalone="yes"?>`;
    expect(xmlText(bytes(sjis, '<a>', [0x93, 0xfa, 0x96, 0x7b], '</a>'), undefined)).toBe(
      `${sjis}<a>日本</a>`,
    );
    expect(xmlText(bytes(declared('US-ASCII'), '<a/>'), undefined)).toBe(`${declared('US-ASCII')}<a/>`);
  });

  it("windows-1252's punctuation at 0x80–0x9F, for ISO-8859-1 too (as browsers read both)", () => {
    for (const encoding of ['windows-1252', 'ISO-8859-1']) {
      const head = declared(encoding);
      expect(
        xmlText(bytes(head, '<a n="', [0x93, 0x51, 0x94, 0x20, 0x80, 0x35, 0x96, 0x81], '"/>'), undefined),
      ).toBe(`${head}<a n="\u201cQ\u201d \u20ac5\u2013\u0081"/>`);
    }
  });

  it('UTF-8 without a declaration, or declaring it, or UTF-16 in bytes that read as ASCII', () => {
    for (const head of ['', '<?xml version="1.0"?>', declared('utf-8'), declared('UTF-16')]) {
      expect(xmlText(bytes(head, '<a n="', E_ACUTE_UTF8, '"/>'), 'text/xml')).toBe(`${head}<a n="é"/>`);
    }
  });

  it('the encoding of its byte order mark, which it leaves out, whatever else names one', () => {
    const text = `${declared('ISO-8859-1')}<a n="é😀"/>`;
    expect(
      xmlText(bytes([0xef, 0xbb, 0xbf], Buffer.from(text).toString('latin1')), 'text/xml; charset=x'),
    ).toBe(text);
    const utf16le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    expect(xmlText(utf16le, 'application/xml')).toBe(text);
    const utf16be = Buffer.from(utf16le.subarray(2)).swap16();
    expect(xmlText(Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be]), undefined)).toBe(text);
  });

  it("the Content-Type's charset before the declaration", () => {
    const body = bytes(declared('UTF-8'), '<a n="', [0xe9], '"/>');
    expect(xmlText(body, 'application/bpmn+xml; charset=ISO-8859-1')).toBe(`${declared('UTF-8')}<a n="é"/>`);
    expect(xmlText(body, 'application/xml;charset="latin1"')).toBe(`${declared('UTF-8')}<a n="é"/>`);
  });
});

describe('xmlText refuses', () => {
  it('an encoding it does not know, naming it: declared, a 400 xml_encoding; as the charset, a 415', () => {
    const declaredOne = failure(() => xmlText(bytes(declared('EBCDIC-US'), '<a/>'), 'application/xml'));
    expect(declaredOne).toBeInstanceOf(ValidationError);
    expect(declaredOne.details.errors).toEqual([
      {
        in: 'body',
        path: '$',
        rule: 'xml_encoding',
        message: 'declares the encoding "EBCDIC-US", which this API does not read: send it as UTF-8',
      },
    ]);
    const sent = failure(() => xmlText(bytes('<a/>'), 'application/xml; charset=utf-7'));
    expect(sent).toBeInstanceOf(UnsupportedMediaTypeError);
    expect(sent.message).toContain('"utf-7"');
    expect(sent.details.errors).toEqual([
      {
        in: 'header',
        path: '$.Content-Type',
        rule: 'charset',
        message: 'names the charset "utf-7", which this API does not read',
      },
    ]);
    // A type that cannot be read names a charset no one can tell: not read as the declaration's.
    const unreadable = bytes(declared('UTF-8'), '<a n="', E_ACUTE_UTF8, '"/>');
    for (const type of [
      'application/xml; charset=iso-8859-1; charset=iso-8859-1',
      'text/xml; charset="utf-8',
    ]) {
      expect(failure(() => xmlText(unreadable, type))).toBeInstanceOf(UnsupportedMediaTypeError);
    }
  });

  it('bytes its encoding does not allow, as MALFORMED_XML', () => {
    const undeclared = failure(() => xmlText(bytes('<a n="', [0xe9], '"/>'), 'application/xml'));
    expect(undeclared).toBeInstanceOf(UnreadableError);
    expect(undeclared).toMatchObject({ code: 'MALFORMED_XML', message: 'The body is not valid UTF-8' });
    const declaredUtf8 = failure(() => xmlText(bytes(declared('UTF-8'), '<a n="', [0xe9], '"/>'), undefined));
    expect(declaredUtf8.message).toBe('The body is not valid UTF-8, named by its XML declaration');
    // Half a character after a UTF-16 byte order mark.
    const halfUtf16 = failure(() => xmlText(Buffer.from([0xff, 0xfe, 0x3c, 0x00, 0x3d, 0xd8]), undefined));
    expect(halfUtf16).toMatchObject({ code: 'MALFORMED_XML' });
  });
});
