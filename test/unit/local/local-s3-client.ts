import { S3Client } from '@aws-sdk/client-s3';

/** An SDK client for the embedded S3 at `endpoint`, set as the functions' is against it. */
export const localS3Client = (endpoint: string) =>
  new S3Client({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
