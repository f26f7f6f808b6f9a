/** Rules on create/update payloads that depend on the node type (the schema checks the shape). */
import type { FieldError } from '#shared/domain/errors.ts';
import type { CreateNodePayload, UpdateNodePayload } from '#shared/domain/node-payloads.ts';
import type { NodeTypeDefinition } from '#shared/domain/node-types.ts';

type Payload = CreateNodePayload | UpdateNodePayload;

const bodyError = (path: string, rule: string, message: string): FieldError => ({
  in: 'body',
  path,
  rule,
  message,
});

/** `@type` must be the catalogue's payload type; on update the retrieved `BaseElement` is accepted too. */
export function checkPayloadType(payload: Payload, definition: NodeTypeDefinition): FieldError[] {
  const sent = payload['@type'];
  const isUpdate = 'nodeVersionId' in payload;
  if (sent === definition.payloadType || (isUpdate && sent === 'BaseElement')) return [];
  return [
    bodyError(
      '$["@type"]',
      'type_mismatch',
      `must be "${definition.payloadType}" for nodeType ${definition.nodeType}`,
    ),
  ];
}

export function checkDocumentFields(payload: Payload, definition: NodeTypeDefinition): FieldError[] {
  if (definition.nodeType !== 'DOCUMENT') {
    return (['documentType', 'url', 'fileInfo'] as const)
      .filter((field) => payload[field] !== undefined && payload[field] !== null)
      .map((field) => bodyError(`$.${field}`, 'not_applicable', 'applies to nodeType DOCUMENT only'));
  }
  switch (payload.documentType) {
    case 'URL':
      return [
        ...(payload.url ? [] : [bodyError('$.url', 'required', 'is required when documentType is URL')]),
        ...(payload.fileInfo
          ? [bodyError('$.fileInfo', 'not_applicable', 'applies to documentType FILE only')]
          : []),
      ];
    case 'FILE':
      // Until the upload service exists there is no uploaded file to attach: refuse rather than fake it.
      return [
        bodyError(
          '$.documentType',
          'not_available',
          'FILE documents need the upload service, which this installation does not offer yet; use URL',
        ),
      ];
    default:
      return [bodyError('$.documentType', 'required', 'is required for nodeType DOCUMENT (URL or FILE)')];
  }
}
