/** Reading an assembled file back: by range, or through a presigned URL. */
import { getObjectRange, presignGetObject } from '#shared/clients/s3-object-requests.ts';
import { unlessUnavailable } from './s3-faults.ts';
import { fileKey } from './storage-layout.ts';

/** Bytes `start`..`end` (inclusive) of a file. */
export function readFileRange(fileId: string, start: number, end: number): Promise<Buffer> {
  return unlessUnavailable(getObjectRange(fileKey(fileId), start, end));
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
