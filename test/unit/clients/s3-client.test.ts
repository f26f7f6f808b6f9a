/**
 * The functions' S3 client sends bodies unsigned: SigV4 would otherwise hash each body whole (a SHA-256
 * pass over every chunk and part) before signing. In the cloud it still sends a CRC32 of the body, which
 * S3 checks. Looked at as the request leaves the client, signed, before any network.
 */
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { s3 } from '#shared/clients/s3.ts';
import { readServiceConfig, withConfig } from '#shared/config/index.ts';

const cloud = readServiceConfig({
  TABLE_NAME: 't',
  BUCKET_NAME: 'b',
  AWS_REGION: 'eu-west-1',
  TOKEN_SIGNING_KEY_ID: 'arn:aws:kms:eu-west-1:111111111111:key/k',
});

// As Lambda hands a function its role's credentials.
beforeAll(() => {
  vi.stubEnv('AWS_ACCESS_KEY_ID', 'AKIDEXAMPLE');
  vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'secret');
});

/** The headers of a PutObject as signed, the request stopped before it is sent. */
async function signedHeaders(body: Buffer): Promise<Record<string, string>> {
  const client = withConfig(cloud, () => s3());
  let seen: Record<string, string> = {};
  const stop = new Error('stopped before sending');
  const command = new PutObjectCommand({ Bucket: 'b', Key: 'chunk', Body: body });
  command.middlewareStack.add(
    () => async (args) => {
      seen = { ...(args.request as { headers: Record<string, string> }).headers };
      throw stop;
    },
    { step: 'finalizeRequest', priority: 'low', name: 'captureSigned' },
  );
  await expect(client.send(command)).rejects.toBe(stop);
  return seen;
}

describe('the functions S3 client', () => {
  it('signs an upload body as UNSIGNED-PAYLOAD and checks it with a CRC32 instead', async () => {
    const headers = await signedHeaders(Buffer.alloc(2 * 1024 * 1024, 7));
    expect(headers['x-amz-content-sha256']).toBe('UNSIGNED-PAYLOAD');
    expect(headers.authorization).toMatch(/^AWS4-HMAC-SHA256 /);
    expect(headers['x-amz-checksum-crc32']).toBeDefined();
  });
});
