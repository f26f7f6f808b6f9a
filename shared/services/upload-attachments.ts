/**
 * A FILE document takes its file from one of its creator's uploads (spec §2.2 fileInfo): the upload must be
 * the caller's, complete, and not attached elsewhere, and fileInfo.name must repeat the name it was uploaded
 * under. The document records the file's name, size, declared type and SHA-256; the upload is claimed in
 * the same transaction as the document's write, so it is attached at most once.
 */

import type { NodeWrite } from '#shared/data/node-write-path.ts';
import { findUpload } from '#shared/data/upload-repository.ts';
import { BadRequestError, ConflictError, DomainError } from '#shared/domain/errors.ts';
import { lineBreaksAsLf, storedFileName } from '#shared/domain/file-names.ts';
import { type Node, versionIdTime } from '#shared/domain/node.ts';
import type { StoredFileInfo } from '#shared/domain/node-kinds/document.ts';
import { type StoredFile, type Upload, uploadKeyOf } from '#shared/domain/uploads/upload.ts';
import { unknownUpload } from '#shared/domain/uploads/upload-errors.ts';
import type { Caller } from '#shared/domain/user.ts';

export interface Attachment {
  /** The fileInfo the document stores. */
  fileInfo: StoredFileInfo;
  /** The write that claims the upload (none when the document keeps the file it has). */
  claim: (nodeId: string, at: string) => NodeWrite[];
}

const sentFileInfo = (fields: Record<string, unknown>) => fields.fileInfo as StoredFileInfo | null;

/** The file a create or update of a FILE document attaches or keeps; null for any other document. */
export async function attachmentFor(
  caller: Caller,
  fields: Record<string, unknown>,
  current?: Node,
): Promise<Attachment | null> {
  const sent = sentFileInfo(fields);
  if (fields.documentType !== 'FILE' || !sent) return null;
  const kept = current && sentFileInfo(current.fields);
  const keep: Attachment | null = kept?.fileId ? { fileInfo: kept, claim: () => [] } : null;
  const sameIdentifier = kept?.uploadIdentifier === sent.uploadIdentifier;
  // A retrieved document sent back as it was names its file's SHA-256: it keeps the file, with no read.
  if (keep && sameIdentifier && sent.sha256 !== undefined && sent.sha256 === kept?.sha256) return keep;
  const { principalId } = caller.principal;
  const uploadKey = uploadKeyOf(sent.uploadIdentifier);
  const upload = await findUpload(principalId, uploadKey, Date.now());
  // Under the identifier it has, a document keeps its file unless the caller has uploaded another since
  // (resumable.js names an upload by the file's size and name, so an edited file often has the same one):
  // one still arriving, or made before the document took its file, is no new file.
  if (keep && sameIdentifier && !(upload && newFileUnder(upload, kept, current))) return keep;
  if (!upload) throw unknownUpload(sent.uploadIdentifier, 'body');
  // The upload this document held before (it became a URL document meanwhile): its file comes back.
  const heldBefore = current && upload.state === 'attached' && upload.attachedTo === current.nodeId;
  const file = heldBefore && upload.file ? upload.file : attachable(upload);
  if (lineBreaksAsLf(sent.name) !== upload.fileName) {
    throw new BadRequestError(
      'FILE_NAME_MISMATCH',
      'fileInfo.name must be the name the file was uploaded under',
      [
        {
          in: 'body',
          path: '$.fileInfo.name',
          rule: 'matches_upload',
          message: `must equal the resumableFilename of upload ${upload.identifier}`,
        },
      ],
    );
  }
  if (heldBefore) return { fileInfo: storedFileInfo(upload, file), claim: () => [] };
  // Before the document holds it, so the file never expires under a document. Should the write fail
  // after this, the file is kept (storage, never data, is what a failure costs).
  // The S3 client loads with the first request that attaches a file: most creates and updates do not.
  const { markFileAttached } = await import('#shared/data/file-tags.ts');
  await markFileAttached(file.fileId);
  return {
    fileInfo: storedFileInfo(upload, file),
    claim: (nodeId, at) => [{ kind: 'claimUpload', principalId, uploadKey, nodeId, at }],
  };
}

const storedFileInfo = (upload: Upload, file: StoredFile): StoredFileInfo => ({
  uploadIdentifier: upload.identifier,
  name: storedFileName(upload.fileName),
  size: file.size,
  contentType: file.contentType,
  sha256: file.sha256,
  fileId: file.fileId,
});

/**
 * Whether the upload is a file made after the one the document holds (that file's id's time; a file made
 * before ids kept their time: the document's last write), or one on its way to being such a file: a
 * complete upload by when it completed, an assembling or failed one by when it started (it then answers
 * why it cannot be attached yet). One still receiving chunks is no file yet.
 */
function newFileUnder(upload: Upload, kept: StoredFileInfo | null | undefined, current?: Node): boolean {
  if (upload.state === 'attached' || upload.state === 'receiving') return false;
  if (!kept?.fileId || !current) return true;
  const keptAt = versionIdTime(kept.fileId) ?? Date.parse(current.modificationDate);
  return Date.parse(upload.state === 'complete' ? upload.updatedAt : upload.createdAt) > keptAt;
}

/** The upload's file, if it can be attached; otherwise a 409 saying why. */
function attachable(upload: Upload) {
  if (upload.state === 'complete' && upload.file) return upload.file;
  const why: Record<Exclude<Upload['state'], 'complete'>, string> = {
    receiving: `has ${upload.chunks.size} of its ${upload.totalChunks} chunks; send the missing ones first`,
    assembling:
      'is being assembled; retry in a few seconds (GET /api/v1/uploads/{identifier} tells when it is done)',
    failed: `failed: ${upload.failure ?? 'its file could not be assembled'}; upload the file again`,
    attached: `is attached to ${upload.attachedTo ?? 'another document'} already; upload the file again to attach it twice`,
  };
  const state = upload.state === 'complete' ? 'assembling' : upload.state;
  throw new DomainError(
    'conflict',
    `UPLOAD_${state.toUpperCase()}`,
    `The upload ${upload.identifier} ${why[state]}`,
    {
      extensions: { uploadState: state },
      errors: [
        {
          in: 'body',
          path: '$.fileInfo.uploadIdentifier',
          rule: 'attachable',
          message: `must name a complete upload no other document holds (it ${why[state]})`,
        },
      ],
    },
  );
}

/** After a claim lost its condition: the upload changed meanwhile (attached elsewhere, or expired). */
export async function claimLost(caller: Caller, fields: Record<string, unknown>): Promise<Error> {
  const sent = sentFileInfo(fields);
  const identifier = sent?.uploadIdentifier ?? '';
  const upload = await findUpload(caller.principal.principalId, uploadKeyOf(identifier), Date.now());
  if (!upload) return unknownUpload(identifier, 'body');
  try {
    attachable(upload);
  } catch (error) {
    return error as Error;
  }
  return new ConflictError('WRITE_CONFLICT', 'The upload changed while the document was written; retry');
}
