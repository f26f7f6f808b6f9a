/** Token keys from a PEM file: the embedded stack's stand-in for the KMS key. */
import { createPrivateKey, createPublicKey, generateKeyPairSync, sign } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { publicJwkOf } from './public-jwk.ts';
import type { TokenKeys } from './token-keys.ts';

/** Creates the key file on the first start of an embedded stack; later starts keep it. */
export function ensureSigningKeyFile(path: string): void {
  if (existsSync(path)) return;
  mkdirSync(dirname(path), { recursive: true });
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  writeFileSync(path, privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600, flag: 'wx' });
}

export function fileTokenKeys(path: string): TokenKeys {
  const privateKey = createPrivateKey(readFileSync(path));
  const publicJwk = publicJwkOf(createPublicKey(privateKey).export({ format: 'jwk' }));
  return {
    publicJwk,
    sign: async (signingInput) =>
      sign('sha256', signingInput, { key: privateKey, dsaEncoding: 'ieee-p1363' }),
  };
}
