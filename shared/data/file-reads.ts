/** Reading an assembled file back: by range, or through a presigned URL. */
import { getObjectRange, presignGetObject } from '#shared/clients/s3-object-requests.ts';
import { NotFoundError } from '#shared/domain/errors.ts';
import { unlessUnavailable } from './s3-faults.ts';
import { fileKey } from './storage-layout.ts';

/** Bytes `start`..`end` (inclusive) of a file. */
export async function readFileRange(fileId: string, start: number, end: number): Promise<Buffer> {
  try {
    return await unlessUnavailable(getObjectRange(fileKey(fileId), start, end));
  } catch (error) {
    // A document names a file the store no longer has (removed by hand, or lost): nothing to serve.
    if (error instanceof Error && error.name === 'NoSuchKey') {
      throw new NotFoundError('FILE_NOT_FOUND', `The file ${fileId} is missing from the file store`);
    }
    throw error;
  }
}

/** A URL that reads the file for `seconds`, answered with the headers given (S3 response overrides). */
export function presignedFileUrl(
  fileId: string,
  headers: { contentType: string; contentDisposition: string },
  seconds: number,
): Promise<string> {
  return presignGetObject(
    fileKey(fileId),
    {
      'response-content-type': headers.contentType,
      'response-content-disposition': headers.contentDisposition,
      'response-cache-control': 'private, no-store',
    },
    seconds,
  );
}
