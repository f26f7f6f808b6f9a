/** DOCUMENT: a document that references a URL, or (with the upload service) holds a file. */
import * as z from 'zod/mini';
import { defineKind, fieldError } from './kind.ts';

export const DOCUMENT_TYPES = ['URL', 'FILE'] as const;
export const URL_MAX_LENGTH = 2048;

/** Spec §2.2: the upload a FILE document is made of. */
export const fileInfoSchema = z.strictObject({
  uploadIdentifier: z.string().check(z.minLength(1), z.maxLength(200)),
  name: z.string().check(z.minLength(1), z.maxLength(255)),
});

const documentType = z.nullable(z.enum(DOCUMENT_TYPES));

export const DOCUMENT = defineKind({
  stored: z.object({
    documentType: z._default(documentType, null),
    url: z._default(z.nullable(z.string()), null),
    fileInfo: z._default(z.nullable(fileInfoSchema), null),
  }),
  payloadShape: {
    documentType: z.optional(documentType),
    url: z.optional(z.nullable(z.httpUrl().check(z.maxLength(URL_MAX_LENGTH)))),
    fileInfo: z.optional(z.nullable(fileInfoSchema)),
  },
  viewShape: {
    documentType: z.optional(documentType),
    url: z.optional(z.nullable(z.string())),
    fileInfo: z.optional(z.nullable(fileInfoSchema)),
  },
  check: ({ documentType, url, fileInfo }) => {
    switch (documentType) {
      case 'URL':
        return [
          ...(url ? [] : [fieldError('$.url', 'required', 'is required when documentType is URL')]),
          ...(fileInfo
            ? [fieldError('$.fileInfo', 'not_applicable', 'applies to documentType FILE only')]
            : []),
        ];
      case 'FILE':
        // Until the upload service exists there is no uploaded file to attach: refuse rather than fake it.
        return [
          fieldError(
            '$.documentType',
            'not_available',
            'FILE documents need the upload service, which this installation does not offer yet; use URL',
          ),
        ];
      default:
        return [fieldError('$.documentType', 'required', 'is required for nodeType DOCUMENT (URL or FILE)')];
    }
  },
  view: (fields) => fields,
});
