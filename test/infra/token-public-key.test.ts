/**
 * The deploy-time reader of the token public key: what it hands CloudFormation is what a function's
 * TOKEN_PUBLIC_KEY must hold for tokens signed by that KMS key to verify.
 */
import { generateKeyPairSync } from 'node:crypto';
import { createRequire } from 'node:module';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { publicJwkOf, publicJwkOfSpki } from '#shared/auth/public-jwk.ts';
import { readServiceConfig } from '#shared/config/index.ts';

// The handler is CommonJS on the Lambda runtime's SDK: mock the same (CommonJS) client it loads.
const require = createRequire(import.meta.url);
const { GetPublicKeyCommand, KMSClient } =
  require('@aws-sdk/client-kms') as typeof import('@aws-sdk/client-kms');
const { handler } = require('../../infra/constructs/token-public-key-handler/index.js');

const kms = mockClient(KMSClient);
const KEY_ID = 'arn:aws:kms:eu-west-1:111111111111:key/k';
const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const der = publicKey.export({ format: 'der', type: 'spki' });
const event = (RequestType: string) => ({
  RequestType,
  PhysicalResourceId: KEY_ID,
  ResourceProperties: { KeyId: KEY_ID },
});

beforeEach(() => {
  kms.reset();
  kms
    .on(GetPublicKeyCommand, { KeyId: KEY_ID })
    .resolves({ PublicKey: new Uint8Array(der), KeySpec: 'ECC_NIST_P256' });
});

describe('TokenPublicKey custom resource', () => {
  it('answers the key in base64 that the function configuration accepts and verifies with', async () => {
    const result = await handler(event('Create'));
    expect(result.PhysicalResourceId).toBe(KEY_ID);
    const config = readServiceConfig({
      TABLE_NAME: 't',
      BUCKET_NAME: 'b',
      TOKEN_SIGNING_KEY_ID: KEY_ID,
      TOKEN_PUBLIC_KEY: result.Data.PublicKey,
    });
    const jwk = publicJwkOfSpki(Buffer.from(config.tokenPublicKey as string, 'base64'));
    expect(jwk).toEqual(publicJwkOf(publicKey.export({ format: 'jwk' })));
  });

  it('reads the key again on update, and calls nothing on delete', async () => {
    await handler(event('Update'));
    expect(kms.commandCalls(GetPublicKeyCommand)).toHaveLength(1);
    expect(await handler(event('Delete'))).toEqual({ PhysicalResourceId: KEY_ID });
    expect(kms.commandCalls(GetPublicKeyCommand)).toHaveLength(1);
  });

  it('fails the deployment for a key that is not P-256', async () => {
    kms.on(GetPublicKeyCommand).resolves({ PublicKey: new Uint8Array(der), KeySpec: 'RSA_2048' });
    await expect(handler(event('Create'))).rejects.toThrow(/no P-256 public key/);
  });
});
