import type middy from '@middy/core';
import {
  PayloadTooLargeError,
  UnreadableError,
  UnsupportedMediaTypeError,
  ValidationError,
} from '#shared/domain/errors.ts';
import { LIMITS } from '#shared/domain/node-payloads.ts';
import { parseJsonInput } from '../json-input.ts';
import type { ParsedEvent } from '../operation.ts';
import { header } from '../request-headers.ts';
import type { HttpResult } from '../types.ts';

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
const JSON_MEDIA_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;.*)?$/i;

/**
 * Parses a JSON body for operations that take one: media type, size, encoding, syntax and the rules of
 * json-input.ts (depth, reserved keys, exact numbers) are checked here, before any schema.
 */
export function jsonBody(expected: boolean, optional: boolean): middy.MiddlewareObj<ParsedEvent, HttpResult> {
  return {
    before: ({ event }) => {
      if (!expected) return;
      const raw = event.body
        ? Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8')
        : Buffer.alloc(0);
      if (raw.length === 0) {
        if (optional) return;
        throw new ValidationError([
          { in: 'body', path: '$', rule: 'required', message: 'a JSON body is required' },
        ]);
      }
      const contentType = header(event, 'content-type');
      if (!contentType || !JSON_MEDIA_TYPE.test(contentType)) {
        throw new UnsupportedMediaTypeError(
          `The body must be sent as Content-Type: application/json (got ${contentType ? `"${contentType}"` : 'none'})`,
        );
      }
      if (raw.length > LIMITS.jsonBodyBytes) throw new PayloadTooLargeError(LIMITS.jsonBodyBytes);
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
