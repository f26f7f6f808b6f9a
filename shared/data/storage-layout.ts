/**
 * Object key layout of the bucket, and the lifecycle rules that follow it: the stack gives them to S3, and
 * the embedded stack applies the same rules itself (s3rver has no lifecycle).
 */

/** Upload chunks waiting for their siblings: `chunks/<userId>/<upload key>/<chunk number>`. */
export const UPLOAD_CHUNK_PREFIX = 'chunks/';
/** Assembled files, attached to documents or waiting to be: `files/<fileId>`. */
export const FILE_PREFIX = 'files/';
/** BPMN files imported into processes, kept to give back on export what the import received. */
export const BPMN_TEMPLATE_PREFIX = 'bpmn/';

export const bpmnTemplateKey = (processId: string, templateId: string) =>
  `${BPMN_TEMPLATE_PREFIX}${processId}/${templateId}.bpmn`;
export const uploadChunkPrefix = (userId: string, uploadKey: string) =>
  `${UPLOAD_CHUNK_PREFIX}${userId}/${uploadKey}/`;
/** Chunk numbers zero-padded to one width (at most 10,000 chunks): keys sort as the chunks do. */
export const uploadChunkKey = (userId: string, uploadKey: string, chunkNumber: number) =>
  `${uploadChunkPrefix(userId, uploadKey)}${String(chunkNumber).padStart(5, '0')}`;
export const fileKey = (fileId: string) => `${FILE_PREFIX}${fileId}`;

/** The tag an assembled file carries until a document holds it; attaching removes it. */
export const UNATTACHED_TAG = { Key: 'upload', Value: 'unattached' } as const;

/** Days after which S3 removes what nobody finished with. */
export const STORAGE_EXPIRY_DAYS = {
  /**
   * Chunks of an upload never completed. S3 counts each chunk's days from its own creation, however
   * recently the upload's last chunk came: the upload takes chunks for at most 2 days from its start
   * (UPLOAD_RETENTION.receivingMaxSeconds; its receipt's TTL is a day after its last chunk within that),
   * so its chunks, none older than it, outlive it by a day, in which its last assembly reads them.
   */
  chunks: 3,
  /** An assembled file never attached (its upload's TTL is 7 days after assembly). */
  unattachedFiles: 8,
  /** Parts of a multipart upload an assembly abandoned. */
  incompleteMultipartUploads: 1,
} as const;

export interface ObjectExpiryRule {
  id: string;
  prefix: string;
  /** Only objects carrying this tag. */
  tag?: { Key: string; Value: string };
  days: number;
}

/** Object expiry rules of the bucket (the multipart-abort rule is the stack's alone: s3rver keeps no parts). */
export const OBJECT_EXPIRY_RULES: readonly ObjectExpiryRule[] = [
  { id: 'expire-abandoned-upload-chunks', prefix: UPLOAD_CHUNK_PREFIX, days: STORAGE_EXPIRY_DAYS.chunks },
  {
    id: 'expire-unattached-files',
    prefix: FILE_PREFIX,
    tag: UNATTACHED_TAG,
    days: STORAGE_EXPIRY_DAYS.unattachedFiles,
  },
];
