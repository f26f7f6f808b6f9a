import { S3Client } from '@aws-sdk/client-s3';
import { perConfig } from '#shared/config/index.ts';
import { awsClientSettings, withoutSdkLogging } from './aws-client-settings.ts';

/**
 * One S3 client per configuration (per process in Lambda). Against s3rver: path-style addressing, and
 * checksums only when an operation requires them (otherwise streamed bodies are stored with aws-chunked
 * framing).
 */
export const s3 = perConfig((configuration) => {
  const endpoint = configuration.s3Endpoint;
  return withoutSdkLogging(
    new S3Client({
      ...awsClientSettings(configuration, endpoint),
      ...(endpoint
        ? {
            forcePathStyle: true,
            requestChecksumCalculation: 'WHEN_REQUIRED',
            responseChecksumValidation: 'WHEN_REQUIRED',
          }
        : {}),
    }),
  );
});
