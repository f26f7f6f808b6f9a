/**
 * Uploads as stored.
 * How items of the single table are described: ../entity.ts; which key serves which query: ../table-schema.ts.
 */
import { uploadKeyOf, uploadSchema } from '#shared/domain/uploads/upload.ts';
import { defineEntity } from '../entity.ts';
import { uploadItemKey } from '../keys.ts';

/** A user's upload: its chunks' receipt, then its assembled file, then the document holding it. */
export const uploads = defineEntity({
  name: 'Upload',
  // expiresAtEpoch is the table's TTL attribute (table-schema.ts).
  schema: uploadSchema,
  keys: (upload, principalId: string) => uploadItemKey(principalId, uploadKeyOf(upload.identifier)),
  // DynamoDB refuses an empty set: an upload with no chunk yet has no `chunks` attribute.
  store: ({ chunks, ...upload }) => (chunks.size > 0 ? { ...upload, chunks } : upload),
});
