import type middy from '@middy/core';
import { type BodyFormat, JSON_BODY, type RawBody } from '#shared/api/operation.ts';
import {
  headerError,
  PayloadTooLargeError,
  UnreadableError,
  UnsupportedMediaTypeError,
  ValidationError,
} from '#shared/domain/errors.ts';
import { parseMediaType } from '#shared/domain/file-names.ts';
import { parseJsonInput } from '../json-input.ts';
import type { ParsedEvent } from '../operation.ts';
import { header } from '../request-headers.ts';
import type { HttpResult } from '../types.ts';
import { xmlText } from '../xml-text.ts';

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
/** Charsets whose bytes are read as UTF-8 unchanged (US-ASCII is its subset). */
const UTF8_CHARSETS = new Set(['utf-8', 'utf8', 'us-ascii']);

/**
 * The body's bytes are taken as sent, so a content coding (gzip, br) would be stored or parsed still
 * compressed: refused (RFC 9110 §8.4: 415 for a coding the server does not take).
 */
function refuseContentCoding(contentEncoding: string | undefined): void {
  if (contentEncoding === undefined) return;
  const codings = contentEncoding.split(',').map((coding) => coding.trim().toLowerCase());
  if (codings.every((coding) => coding === 'identity' || coding === '')) return;
  throw new UnsupportedMediaTypeError(
    `The body must be sent without a content coding (got Content-Encoding "${contentEncoding}"): send it uncompressed`,
    headerError(
      'Content-Encoding',
      'content_coding',
      'must be identity or absent: send the body uncompressed',
    ),
    ['identity'],
  );
}

/**
 * JSON is UTF-8 (RFC 8259 §8.1): a body declared in another charset is refused, not misread. (XML is read
 * in the charset it is sent with, xml-text.ts.)
 */
function refuseOtherCharset(contentType: string): void {
  const parsed = parseMediaType(contentType);
  // A type that cannot be read (a parameter twice, an open quote) may name any charset: not taken on trust.
  const charset = parsed ? parsed.parameters.get('charset') : /charset/i.test(contentType) ? '' : undefined;
  if (charset === undefined || UTF8_CHARSETS.has(charset.toLowerCase())) return;
  throw new UnsupportedMediaTypeError(
    `The body must be UTF-8 (got Content-Type "${contentType}"): send it as UTF-8, with charset=utf-8 or none`,
    headerError('Content-Type', 'charset', 'must name charset=utf-8 or none'),
  );
}
/** How the media types of MEDIA_TYPES are named in what a refusal says. */
const ALIKE = {
  'application/json': ' (or a +json type)',
  'application/xml': ', text/xml or a +xml type',
} as const;
const MEDIA_TYPES: Record<Exclude<BodyFormat['mediaType'], 'application/octet-stream'>, RegExp> = {
  'application/json': /^application\/(?:[\w.+-]+\+)?json\s*(?:;.*)?$/i,
  // application/xml, text/xml and the +xml types (application/bpmn+xml).
  'application/xml': /^(?:application|text)\/(?:[\w.+-]+\+)?xml\s*(?:;.*)?$/i,
};

/**
 * Reads the body of operations that take one: media type, size and encoding are checked here, before any
 * schema; a JSON body (UTF-8) is parsed under the rules of json-input.ts (depth, reserved keys, exact
 * numbers), an XML body is handed on as its text, read in the encoding it names (xml-text.ts).
 */
export function requestBody(
  expected: boolean,
  optional: boolean,
  { mediaType, maxBytes }: BodyFormat = JSON_BODY,
): middy.MiddlewareObj<ParsedEvent, HttpResult> {
  const json = mediaType === 'application/json';
  return {
    before: ({ event }) => {
      if (!expected) return;
      const raw = event.body
        ? Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8')
        : Buffer.alloc(0);
      const contentType = header(event, 'content-type');
      refuseContentCoding(header(event, 'content-encoding'));
      if (mediaType === 'application/octet-stream') {
        // Bytes of any media type, none included (a chunk comes as text/plain, octet-stream or a form alike).
        if (raw.length > maxBytes) throw new PayloadTooLargeError(maxBytes);
        event.parsedBody = {
          contentType: contentType ?? 'application/octet-stream',
          bytes: raw,
        } satisfies RawBody;
        return;
      }
      if (raw.length === 0) {
        if (optional) return;
        throw new ValidationError([
          { in: 'body', path: '$', rule: 'required', message: `a ${json ? 'JSON' : 'XML'} body is required` },
        ]);
      }
      if (!contentType || !MEDIA_TYPES[mediaType].test(contentType)) {
        throw new UnsupportedMediaTypeError(
          `The body must be sent as Content-Type: ${mediaType} (got ${contentType ? `"${contentType}"` : 'none'})`,
          headerError('Content-Type', 'media_type', `must be ${mediaType}${ALIKE[mediaType]}`),
        );
      }
      if (json) refuseOtherCharset(contentType);
      if (raw.length > maxBytes) throw new PayloadTooLargeError(maxBytes);
      if (!json) {
        event.parsedBody = xmlText(raw, contentType);
        return;
      }
      let text: string;
      try {
        text = UTF8.decode(raw);
      } catch {
        throw new UnreadableError('MALFORMED_JSON', 'The body is not valid UTF-8, which JSON must be');
      }
      try {
        event.parsedBody = parseJsonInput(text);
      } catch (error) {
        if (!(error instanceof SyntaxError)) throw error;
        throw new UnreadableError('MALFORMED_JSON', `The body is not valid JSON: ${error.message}`);
      }
    },
  };
}
