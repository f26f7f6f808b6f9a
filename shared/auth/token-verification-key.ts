/**
 * The public key access tokens are verified with. In the cloud the stack reads it from KMS at deploy
 * time and hands it to every function as TOKEN_PUBLIC_KEY, so functions that only verify tokens load
 * no KMS client and make no KMS call; on the embedded stack it is derived from the PEM file.
 */
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ConfigError, perConfig, type ServiceConfig } from '#shared/config/index.ts';
import { type PublicJwk, publicJwkOf, publicJwkOfSpki } from './public-jwk.ts';

/** This configuration's verification key, read once (a read that fails is tried again next time). */
export const verificationJwk = perConfig(read);

function read({ tokenPublicKey, tokenSigningKeyFile }: ServiceConfig): PublicJwk {
  if (tokenPublicKey) return publicJwkOfSpki(Buffer.from(tokenPublicKey, 'base64'));
  if (tokenSigningKeyFile) {
    return publicJwkOf(
      createPublicKey(createPrivateKey(readFileSync(tokenSigningKeyFile))).export({ format: 'jwk' }),
    );
  }
  throw new ConfigError(
    'Environment variable TOKEN_PUBLIC_KEY is required to verify access tokens signed by TOKEN_SIGNING_KEY_ID',
  );
}
