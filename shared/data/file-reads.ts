/** Reading an assembled file back: by range, or through a presigned URL. */
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { s3 } from '#shared/clients/s3.ts';
import { config } from '#shared/config/index.ts';
import { unlessUnavailable } from './s3-faults.ts';
import { fileKey } from './storage-layout.ts';

/** Bytes `start`..`end` (inclusive) of a file. */
export async function readFileRange(fileId: string, start: number, end: number): Promise<Buffer> {
  const { Body } = await unlessUnavailable(
    s3().send(
      new GetObjectCommand({
        Bucket: config().bucketName,
        Key: fileKey(fileId),
        Range: `bytes=${start}-${end}`,
      }),
    ),
  );
  return Buffer.from(Body ? await Body.transformToByteArray() : []);
}

/** A URL that reads the file for `seconds`, answered with the headers given (S3 response overrides). */
export function presignedFileUrl(
  fileId: string,
  headers: { contentType: string; contentDisposition: string },
  seconds: number,
): Promise<string> {
  return getSignedUrl(
    s3(),
    new GetObjectCommand({
      Bucket: config().bucketName,
      Key: fileKey(fileId),
      ResponseContentType: headers.contentType,
      ResponseContentDisposition: headers.contentDisposition,
      ResponseCacheControl: 'private, no-store',
    }),
    { expiresIn: seconds },
  );
}
