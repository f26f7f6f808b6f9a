/** The upload area (spec §4.2, resumable.js), an upload's state, and a FILE document's content. */
import * as z from 'zod/mini';
import { FILE_PREFIX, UPLOAD_CHUNK_PREFIX } from '#shared/data/storage-layout.ts';
import { uuidSchema } from '#shared/domain/schema-parts.ts';
import { resumableQuerySchema, UPLOAD_LIMITS } from '#shared/domain/uploads/chunk-rules.ts';
import { UPLOAD_STATES } from '#shared/domain/uploads/upload.ts';
import { API_PREFIX, authenticated, defineOperation, NO_BUCKET, problem } from '../operation.ts';
import { draftQuerySchema } from '../params.ts';

const MiB = 1024 * 1024;
/** A multipart form wraps the chunk in a few hundred bytes of envelope and fields. */
const FORM_ENVELOPE_BYTES = 64 * 1024;

const rawBodySchema = z.object({ contentType: z.string(), bytes: z.instanceof(Buffer) });

export const receiveChunk = defineOperation({
  name: 'receiveChunk',
  handler: 'functions/uploads/receive-chunk.ts',
  routes: [{ method: 'POST', path: '/upload' }],
  access: {
    ...authenticated('readWrite'),
    bucket: { read: [UPLOAD_CHUNK_PREFIX], write: [UPLOAD_CHUNK_PREFIX, FILE_PREFIX], tag: [FILE_PREFIX] },
    invokes: ['assembleUpload'],
  },
  memoryMb: 1024,
  summary: 'Upload a chunk of a file (resumable.js, flow.js)',
  description:
    'Spec §4.2; outside /api/v1, at `/upload/` (or `/upload`). The chunk is the raw body (any Content-Type) or ' +
    'the `file` part of a multipart form, as resumable.js and flow.js send it by default. Its parameters come in ' +
    'the query, or as fields of the form (flow.js sends them only there), or both alike (as resumable.js does); ' +
    "flow.js's names (`flowIdentifier`, `flowChunkNumber`, …) are taken for resumable.js's, and errors name the " +
    "parameters as sent. Each parameter is sent once. Without a type parameter, the form's type for the file part " +
    "is recorded (unless application/octet-stream). Keep the libraries' testMethod GET and an empty `query` option. " +
    'resumable.js chunking: a file of resumableTotalSize S in chunks of resumableChunkSize C has max(floor(S/C), 1) ' +
    'chunks, the last one running to the end of the file (or ceil(S/C) when resumableTotalChunks says so, as with ' +
    "forceChunkSize). A single-chunk upload (the spec's form: chunk size 1, total size 1, chunk number 1) takes the " +
    `body as the whole file whatever its size. At most ${UPLOAD_LIMITS.maxChunkBytes / MiB} MiB per chunk (413 ` +
    `beyond: keep C at 2 MiB or less with resumable.js's default chunking), ${UPLOAD_LIMITS.maxFileBytes / MiB / 1024} GiB ` +
    `per file, ${UPLOAD_LIMITS.maxChunks} chunks per file, ${UPLOAD_LIMITS.maxOpenUploadsPerUser} open uploads per ` +
    'user. Chunks may come in any order and in parallel; a chunk sent twice is stored once. Identifiers belong to ' +
    'their uploader; once an upload is attached to a document its identifier may start a new upload. When the ' +
    'last chunk is in, the file is assembled (in the background when large; see GET /api/v1/uploads/{identifier}). ' +
    'A 503 carries Retry-After; resumable.js retries any status not in its permanentErrors (default 400, 404, 415, ' +
    '500, 501): add 401, 403 and 413 there, and set chunkRetryInterval. flow.js retries only with maxChunkRetries ' +
    '(default 0), and takes 400 as worth retrying unless added to permanentErrors.',
  tag: 'Document',
  request: {
    query: resumableQuerySchema,
    body: rawBodySchema,
    bodyOptional: true,
    bodyFormat: {
      mediaType: 'application/octet-stream',
      maxBytes: UPLOAD_LIMITS.maxChunkBytes + FORM_ENVELOPE_BYTES,
    },
  },
  responses: {
    200: { description: 'The chunk is stored (empty body)' },
    400: problem(
      'A parameter breaks the chunk rules, differs from the upload, or the upload takes no more chunks',
    ),
    413: problem(`The chunk is larger than ${UPLOAD_LIMITS.maxChunkBytes / MiB} MiB`),
    503: problem('Temporarily unavailable; retry after Retry-After seconds'),
  },
});

export const testChunk = defineOperation({
  name: 'testChunk',
  handler: 'functions/uploads/test-chunk.ts',
  routes: [{ method: 'GET', path: '/upload' }],
  access: authenticated('read'),
  summary: 'Is this chunk stored already? (resumable.js and flow.js testChunks)',
  description:
    "The same parameters as the upload of the chunk, in the query (resumable.js's or flow.js's names). 200 " +
    'when the chunk is stored (the uploader skips it), 204 when it is not (the uploader sends it): an ' +
    'interrupted upload resumes where it stopped.',
  tag: 'Document',
  request: { query: resumableQuerySchema },
  responses: {
    200: { description: 'Stored' },
    204: { description: 'Not stored' },
    400: problem('A parameter breaks the chunk rules or differs from the upload'),
  },
});

const uploadViewSchema = z.object({
  identifier: z.string(),
  fileName: z.string(),
  state: z.enum(UPLOAD_STATES),
  totalChunks: z.number(),
  chunksReceived: z.number(),
  size: z.nullable(z.number()),
  sha256: z.nullable(z.string()),
  contentType: z.nullable(z.string()),
  attachedTo: z.nullable(z.string()),
  failure: z.nullable(z.string()),
  createdAt: z.string(),
  expiresAt: z.string(),
  /** Where this installation takes upload chunks ({upload_url}/upload/ of spec §4.2). */
  uploadUrl: z.string(),
});

export const getUpload = defineOperation({
  name: 'getUpload',
  handler: 'functions/uploads/get-upload.ts',
  routes: [{ method: 'GET', path: `${API_PREFIX}/uploads/{identifier}` }],
  access: { ...authenticated('read'), invokes: ['assembleUpload'] },
  summary: "An upload's state",
  description:
    'One of your uploads: receiving (with the chunks received), assembling, complete (with size and SHA-256: ' +
    'attach it to a FILE document), failed (with why), or attached (with the document). An upload not completed ' +
    'expires a day after its last chunk, and at the latest 2 days after its first however often chunks come ' +
    '(`expiresAt`); a complete one not attached, a week after it completed. An expired upload is a 404 here.',
  tag: 'Document',
  request: {
    path: z.strictObject({
      identifier: z.string().check(z.minLength(1), z.maxLength(UPLOAD_LIMITS.identifierMaxLength)),
    }),
  },
  responses: {
    200: { description: 'The upload', body: uploadViewSchema },
    404: problem('You have no upload with this identifier (or it expired)'),
  },
});

export const downloadFile = defineOperation({
  name: 'downloadFile',
  handler: 'functions/uploads/download-file.ts',
  routes: [
    { method: 'GET', path: `${API_PREFIX}/document/documents/{documentId}/content` },
    // Its size, type and ETag without the bytes (a download manager's first question).
    {
      method: 'HEAD',
      path: `${API_PREFIX}/document/documents/{documentId}/content`,
      id: 'headFileContent',
      summary: "A FILE document's content: the headers alone",
    },
  ],
  access: { ...authenticated('read'), bucket: { ...NO_BUCKET, read: [FILE_PREFIX] } },
  summary: "A FILE document's content",
  description:
    'The file, always as an attachment (Content-Disposition) and never rendered from this origin: HTML, SVG, XML ' +
    'and scripts are served as application/octet-stream, with X-Content-Type-Options: nosniff and a sandboxing ' +
    'Content-Security-Policy. ETag is the SHA-256 of the content; If-None-Match naming it answers 304, If-Match ' +
    'naming another (strong comparison: a weak tag never matches) 412, evaluated first. One byte range ' +
    '(Range: bytes=a-b, a-, -n) answers 206; several ranges answer the whole file, and so does an If-Range that ' +
    'is not the current ETag (strong comparison: a weak tag or a date never matches). Up to 4 MiB (of the file, or ' +
    'of the range asked for) is answered directly; beyond, a 302 to a presigned URL of the file store, valid ' +
    "for 5 minutes, that answers the same Content-Type and Content-Disposition (its ETag is the store's own) " +
    'and honours Range. `draft=false` serves the published version. HEAD answers the same headers without ' +
    'the bytes (Content-Length the size of the file or of the range), never a redirect.',
  tag: 'Document',
  conditions: ['If-Match', 'If-None-Match'],
  request: { path: z.strictObject({ documentId: uuidSchema }), query: draftQuerySchema },
  responses: {
    200: {
      description: 'The file, with the type it may be served as (application/octet-stream unless safe)',
      body: { mediaType: '*/*' },
      headers: {
        ETag: '"<sha256>"',
        'Content-Disposition': 'attachment; filename="…"; filename*=UTF-8\'\'…',
        'Accept-Ranges': 'bytes',
      },
    },
    206: { description: 'The range asked for', body: { mediaType: '*/*' } },
    302: { description: 'Too large to answer directly: Location is a presigned URL, valid 5 minutes' },
    304: { description: 'Not modified (If-None-Match)' },
    404: problem(
      'No FILE document with this id (or not visible to the caller); FILE_NOT_FOUND: its file is missing from the file store',
    ),
    416: problem('The range is outside the file'),
  },
});
