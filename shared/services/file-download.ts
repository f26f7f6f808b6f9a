/**
 * A FILE document's content for a caller who may read the document: small files and small ranges in the
 * answer itself (a Lambda answer holds 6 MB, base64 a third more), anything larger through a short-lived
 * presigned URL that answers the same safe headers.
 */
import { presignedFileUrl, readFileRange } from '#shared/data/file-reads.ts';
import { attachmentDisposition } from '#shared/domain/attachment-disposition.ts';
import { type ByteRange, byteRangeOf, ifRangeHolds } from '#shared/domain/byte-range.ts';
import { NotFoundError } from '#shared/domain/errors.ts';
import { servingContentType } from '#shared/domain/file-names.ts';
import type { StoredFileInfo } from '#shared/domain/node-kinds/document.ts';
import { evaluatePreconditions, type Preconditions } from '#shared/domain/preconditions.ts';
import type { Caller } from '#shared/domain/user.ts';
import { getNode } from './node-reads.ts';

/** What is answered directly; beyond, a redirect. */
export const INLINE_DOWNLOAD_MAX_BYTES = 4 * 1024 * 1024;
export const PRESIGNED_URL_SECONDS = 300;

export type Download =
  | { kind: 'notModified'; etag: string }
  | {
      kind: 'bytes';
      etag: string;
      contentType: string;
      disposition: string;
      size: number;
      range: ByteRange | null;
      /** The bytes answered (a range's, or the file's); null when only their headers were asked for. */
      bytes: Buffer | null;
      length: number;
    }
  | { kind: 'redirect'; etag: string; url: string };

export async function downloadFile(
  caller: Caller,
  documentId: string,
  draft: boolean,
  request: Preconditions & { range?: string; ifRange?: string; headersOnly?: boolean },
): Promise<Download> {
  const document = await getNode(caller, documentId, draft);
  const fileInfo = document.fields.fileInfo as StoredFileInfo | null | undefined;
  if (document.nodeType !== 'DOCUMENT' || document.fields.documentType !== 'FILE' || !fileInfo?.fileId) {
    throw new NotFoundError('NODE_NOT_FOUND', `No FILE document with nodeId ${documentId}`);
  }
  const { fileId, size = 0, sha256 = '' } = fileInfo;
  const etag = `"${sha256}"`;
  if (evaluatePreconditions(request, etag, 'read') === 'notModified') return { kind: 'notModified', etag };
  const contentType = servingContentType(fileInfo.contentType);
  const disposition = attachmentDisposition(fileInfo.name);
  // An If-Range that does not name this file (it has an ETag, no Last-Modified) means the whole file.
  const range = ifRangeHolds(request.ifRange, { etag }) ? byteRangeOf(request.range, size) : null;
  const length = range ? range.end - range.start + 1 : size;
  // A HEAD is answered here, whatever the size: a presigned URL is signed for GET alone.
  if (request.headersOnly) {
    return { kind: 'bytes', etag, contentType, disposition, size, range, bytes: null, length };
  }
  if (length > INLINE_DOWNLOAD_MAX_BYTES) {
    const url = await presignedFileUrl(
      fileId,
      { contentType, contentDisposition: disposition },
      PRESIGNED_URL_SECONDS,
    );
    return { kind: 'redirect', etag, url };
  }
  const bytes =
    length === 0 ? Buffer.alloc(0) : await readFileRange(fileId, range?.start ?? 0, range?.end ?? size - 1);
  return { kind: 'bytes', etag, contentType, disposition, size, range, bytes, length };
}
