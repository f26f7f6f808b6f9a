/** DOCUMENT: a document that references a URL, or holds a file uploaded first (spec §4.1, §4.2). */
import * as z from 'zod/mini';
import { urlTextSchema } from '../schema-parts.ts';
import { defineKind, fieldError } from './kind.ts';

export const DOCUMENT_TYPES = ['URL', 'FILE'] as const;
export const URL_MAX_LENGTH = 2048;

/**
 * Spec §2.2: the upload a FILE document is made of. What the document shows of its file (size, content
 * type, SHA-256) may be sent back as retrieved: it is recorded from the upload, never taken from a payload.
 */
export const fileInfoSchema = z.strictObject({
  uploadIdentifier: z.string().check(z.minLength(1), z.maxLength(200)),
  name: z.string().check(z.minLength(1), z.maxLength(1000)),
  size: z.optional(z.number()),
  contentType: z.optional(z.nullable(z.string())),
  sha256: z.optional(z.string()),
});

/** As stored: the payload's, completed from the upload when the file is attached (upload-attachments.ts). */
const storedFileInfoSchema = z.object({
  uploadIdentifier: z.string(),
  name: z.string(),
  size: z.optional(z.number()),
  contentType: z.optional(z.nullable(z.string())),
  sha256: z.optional(z.string()),
  /** The file's object in the bucket; never shown. */
  fileId: z.optional(z.string()),
});
export type StoredFileInfo = z.output<typeof storedFileInfoSchema>;

const fileInfoViewSchema = z.object({
  uploadIdentifier: z.string(),
  name: z.string(),
  size: z.number(),
  contentType: z.nullable(z.string()),
  sha256: z.string(),
});

const documentType = z.nullable(z.enum(DOCUMENT_TYPES));

/**
 * A URL document's link: any http or https URL, intranet hosts (`https://intranet/…`), ports and IP
 * addresses included. The service never fetches it (only shows it), so there is nothing to guard against
 * but other schemes, such as `javascript:`.
 */
export const linkSchema = z.pipe(
  urlTextSchema(URL_MAX_LENGTH),
  z.url({ protocol: /^https?$/, error: 'must be an http or https URL' }),
);

export const DOCUMENT = defineKind({
  stored: z.object({
    documentType: z._default(documentType, null),
    url: z._default(z.nullable(z.string()), null),
    fileInfo: z._default(z.nullable(storedFileInfoSchema), null),
  }),
  payloadShape: {
    documentType: z.optional(documentType),
    url: z.optional(z.nullable(linkSchema)),
    fileInfo: z.optional(z.nullable(fileInfoSchema)),
  },
  viewShape: {
    documentType: z.optional(documentType),
    url: z.optional(z.nullable(z.string())),
    fileInfo: z.optional(z.nullable(fileInfoViewSchema)),
  },
  check: ({ documentType, url, fileInfo }) => {
    switch (documentType) {
      case 'URL':
        return [
          ...(url ? [] : [fieldError('$.url', 'required', 'is required when documentType is URL')]),
          ...(fileInfo
            ? [
                fieldError(
                  '$.fileInfo',
                  'not_applicable',
                  'applies to documentType FILE only (an update keeps what it leaves out: send null to drop it)',
                ),
              ]
            : []),
        ];
      case 'FILE':
        return [
          ...(fileInfo
            ? []
            : [fieldError('$.fileInfo', 'required', 'is required when documentType is FILE')]),
          ...(url
            ? [
                fieldError(
                  '$.url',
                  'not_applicable',
                  'applies to documentType URL only (an update keeps what it leaves out: send null to drop it)',
                ),
              ]
            : []),
        ];
      default:
        return [fieldError('$.documentType', 'required', 'is required for nodeType DOCUMENT (URL or FILE)')];
    }
  },
  view: ({ fileInfo, ...fields }) => ({
    ...fields,
    fileInfo: fileInfo
      ? {
          uploadIdentifier: fileInfo.uploadIdentifier,
          name: fileInfo.name,
          size: fileInfo.size ?? 0,
          contentType: fileInfo.contentType ?? null,
          sha256: fileInfo.sha256 ?? '',
        }
      : null,
  }),
});
