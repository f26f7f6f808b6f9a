import { S3Client } from '@aws-sdk/client-s3';
import { perConfig } from '#shared/config/index.ts';
import { awsClientSettings, withoutSdkLogging } from './aws-client-settings.ts';

/** Where a request body's hash goes in a SigV4 request (or UNSIGNED-PAYLOAD). */
const PAYLOAD_HASH_HEADER = 'x-amz-content-sha256';

/**
 * One S3 client per configuration (per process in Lambda). Against s3rver: path-style addressing, and
 * checksums only when an operation requires them (otherwise streamed bodies are stored with aws-chunked
 * framing).
 *
 * Bodies are sent as UNSIGNED-PAYLOAD. SigV4 otherwise hashes each body whole to sign it: a SHA-256 pass
 * over every 2–4 MiB upload chunk and every 8 MiB part of an assembly, in the function, for nothing TLS
 * does not already give (S3 accepts unsigned payloads over HTTPS; in the cloud the SDK still sends a CRC32
 * of each body, which S3 checks). A file's own SHA-256 is computed once, when it is assembled.
 */
export const s3 = perConfig((configuration) => {
  const endpoint = configuration.s3Endpoint;
  const client = withoutSdkLogging(
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
  client.middlewareStack.add(
    (next) => async (args) => {
      const headers = (args.request as { headers?: Record<string, string> } | undefined)?.headers;
      if (headers && !Object.keys(headers).some((name) => name.toLowerCase() === PAYLOAD_HASH_HEADER)) {
        headers[PAYLOAD_HASH_HEADER] = 'UNSIGNED-PAYLOAD';
      }
      return next(args);
    },
    { step: 'build', name: 'unsignedPayload', priority: 'low' },
  );
  return client;
});
