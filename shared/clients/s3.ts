import { S3Client } from '@aws-sdk/client-s3';
import { config } from '#shared/config/index.ts';
import { awsClientSettings } from './aws-client-settings.ts';

const endpoint = config().s3Endpoint;

/**
 * One S3 client per process. Against s3rver: path-style addressing, and checksums only when an
 * operation requires them (otherwise streamed bodies are stored with aws-chunked framing).
 */
export const s3 = new S3Client({
  ...awsClientSettings(endpoint),
  ...(endpoint
    ? {
        forcePathStyle: true,
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      }
    : {}),
});
