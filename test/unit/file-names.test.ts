import { parse } from 'content-disposition';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { attachmentDisposition } from '#shared/domain/attachment-disposition.ts';
import { DOWNLOAD_SAFETY_HEADERS, servingContentType, storedFileName } from '#shared/domain/file-names.ts';

const FORBIDDEN = /[\p{Cc}\u061C\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\u2028\u2029\uFEFF]/u;
const WELL_FORMED = /^(?:[^\uD800-\uDFFF]|[\uD800-\uDBFF][\uDC00-\uDFFF])*$/;
const codePoints = (s: string) => Array.from(s).length;

/** Names as hostile clients send them: any code unit (lone surrogates too), path pieces, marks, emoji. */
const hostileNames = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 400 }),
  fc
    .array(
      fc.oneof(
        fc.constantFrom(
          '/',
          '\\',
          '..',
          '.',
          ' ',
          '\u202E',
          '\u200B',
          '\uFEFF',
          '\u0000',
          '\r\n',
          'e\u0301',
          '😀',
          'CON',
        ),
        fc.string({ unit: 'grapheme', maxLength: 40 }),
      ),
      { maxLength: 60 },
    )
    .map((parts) => parts.join('')),
);

describe('storedFileName', () => {
  it.each([
    ['../../etc/passwd', 'passwd'],
    ['..\\..\\boot.ini', 'boot.ini'],
    ['C:\\Users\\me\\report.pdf', 'report.pdf'],
    ['folder/', 'file'],
    ['..', 'file'],
    ['.', 'file'],
    ['', 'file'],
    ['  notes.txt . . ', 'notes.txt'],
    ['evil.exe.', 'evil.exe'],
    ['.bashrc', '.bashrc'],
    ['a\u0000b\u0007c\u007Fd\u0085e\r\n.txt', 'abcde.txt'],
    ['invoice\u202Egpj.exe', 'invoicegpj.exe'],
    ['\u2066photo\u2069\u200F.png\u200B', 'photo.png'],
    ['cafe\u200B\u0301.txt', 'café.txt'],
    ['e\u0301te\u0301.txt', 'été.txt'],
    ['CON', '_CON'],
    ['con.txt', '_con.txt'],
    ['nul.tar.gz', '_nul.tar.gz'],
    ['COM1', '_COM1'],
    ['lpt9.log', '_lpt9.log'],
    ['console.txt', 'console.txt'],
    ['COM10', 'COM10'],
  ])('%j is stored as %j', (raw, stored) => {
    expect(storedFileName(raw)).toBe(stored);
  });

  it('displays the real extension of a name with a right-to-left override', () => {
    expect(storedFileName('invoice\u202Egpj.exe')).toMatch(/\.exe$/);
  });

  it('caps 1,000-character names at 255, keeping the extension', () => {
    const stored = storedFileName(`${'a'.repeat(1000)}.pdf`);
    expect(stored).toHaveLength(255);
    expect(stored).toBe(`${'a'.repeat(251)}.pdf`);
    expect(storedFileName('b'.repeat(1000))).toBe('b'.repeat(255));
    // An "extension" longer than 16 characters is just the end of the name.
    expect(storedFileName(`${'c'.repeat(1000)}.averyveryverylongext`)).toBe('c'.repeat(255));
  });

  it('never splits a surrogate pair when it cuts', () => {
    const stored = storedFileName(`${'😀'.repeat(300)}.png`);
    expect(codePoints(stored)).toBe(255);
    expect(stored).toBe(`${'😀'.repeat(251)}.png`);
    expect(stored).toMatch(WELL_FORMED);
    expect(storedFileName(`x${'😀'.repeat(300)}`)).toMatch(WELL_FORMED);
  });

  it('gives any name a well-formed, single-segment, capped name with nothing hidden, and is idempotent', () => {
    fc.assert(
      fc.property(hostileNames, (raw) => {
        const stored = storedFileName(raw);
        expect(stored).toMatch(WELL_FORMED);
        expect(codePoints(stored)).toBeGreaterThan(0);
        expect(codePoints(stored)).toBeLessThanOrEqual(255);
        expect(stored).not.toMatch(FORBIDDEN);
        expect(stored).not.toMatch(/[/\\]/);
        expect(stored).not.toMatch(/^\s|[\s.]$/u);
        expect(['.', '..']).not.toContain(stored);
        expect(stored).toBe(stored.normalize('NFC'));
        expect(storedFileName(stored)).toBe(stored);
      }),
      { numRuns: 500 },
    );
  });
});

describe('attachmentDisposition', () => {
  it('names a plain file as it is', () => {
    expect(attachmentDisposition('report.pdf')).toBe('attachment; filename=report.pdf');
  });

  it('gives other names an ASCII fallback and the real name in filename*', () => {
    const header = attachmentDisposition('naïve "résumé" 100%.pdf');
    expect(header).toBe(
      'attachment; filename="naive _resume_ 100_.pdf"; ' +
        "filename*=UTF-8''na%C3%AFve%20%22r%C3%A9sum%C3%A9%22%20100%25.pdf",
    );
    expect(parse(header).parameters.filename).toBe('naïve "résumé" 100%.pdf');
  });

  it('falls back to "download" for a name with no ASCII left once its marks are dropped (seed -399221826)', () => {
    const header = attachmentDisposition('\u08CA');
    expect(parse(header, { extended: false }).parameters.filename).toBe('download');
    expect(parse(header).parameters.filename).toBe(storedFileName('\u08CA'));
  });

  it('is always an attachment with a safe ASCII filename and the stored name, for any name', () => {
    fc.assert(
      fc.property(hostileNames, (raw) => {
        const header = attachmentDisposition(raw);
        expect(header).toMatch(/^attachment(;|$)/);
        expect(header).not.toMatch(/\p{Cc}/u);
        expect(header).toMatch(/^[\x20-\x7E]*$/);
        // The plain filename parameter, as sent: a token or a quoted string with no quote or backslash inside.
        const plain = /; filename=("[^"\\]*"|[!#$%&'*+.^_`|~0-9A-Za-z-]+)(;|$)/.exec(header)?.[1];
        expect(plain).toBeDefined();
        expect(parse(header, { extended: false }).parameters.filename).toMatch(/^[\x20-\x7E]+$/);
        // A browser that reads filename* (or a plain ASCII name) gets the stored name back.
        expect(parse(header).parameters.filename).toBe(storedFileName(raw));
      }),
      { numRuns: 500 },
    );
  });
});

describe('servingContentType', () => {
  it.each([
    'text/html',
    'TEXT/HTML; charset=utf-8',
    'image/svg+xml',
    'Image/SVG+XML',
    'application/xhtml+xml',
    'text/xml',
    'application/xml',
    'application/javascript',
    'text/javascript; charset=utf-8',
    'application/x-msdownload',
    'multipart/x-mixed-replace; boundary=x',
    'image/png, text/html',
    'image/png\r\nX-Injected: 1',
    'image/png; x="unterminated',
    'image/png; charset=utf-8; charset=utf-7',
    'png',
    '',
    `image/png; x=${'a'.repeat(300)}`,
    null,
    undefined,
  ])('serves %j as application/octet-stream', (declared) => {
    expect(servingContentType(declared)).toBe('application/octet-stream');
  });

  it.each([
    ['image/png', 'image/png'],
    ['IMAGE/PNG; name="x.png"', 'image/png'],
    ['application/pdf', 'application/pdf'],
    ['Application/PDF ; charset=utf-8', 'application/pdf'],
    ['text/plain', 'text/plain'],
    ['text/plain; charset=UTF-8; format=flowed', 'text/plain; charset=utf-8'],
    ['text/csv;charset="iso-8859-1"', 'text/csv; charset=iso-8859-1'],
    ['text/plain; charset="utf 8"', 'text/plain'],
    ['video/mp4', 'video/mp4'],
    [
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    ],
  ])('serves %j as %j', (declared, served) => {
    expect(servingContentType(declared)).toBe(served);
  });
});

describe('DOWNLOAD_SAFETY_HEADERS', () => {
  it('forbid sniffing, script, embedding elsewhere, shared caching and referrers', () => {
    expect(DOWNLOAD_SAFETY_HEADERS).toMatchObject({
      'x-content-type-options': 'nosniff',
      'cross-origin-resource-policy': 'same-origin',
      'referrer-policy': 'no-referrer',
    });
    expect(DOWNLOAD_SAFETY_HEADERS['content-security-policy']).toMatch(/^default-src 'none'; sandbox(;|$)/);
    expect(DOWNLOAD_SAFETY_HEADERS['cache-control']).toMatch(/\bprivate\b/);
    expect(DOWNLOAD_SAFETY_HEADERS['cache-control']).toMatch(/\bno-cache\b/);
    expect(Object.isFrozen(DOWNLOAD_SAFETY_HEADERS)).toBe(true);
  });
});
