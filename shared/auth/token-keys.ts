/**
 * The key that signs access tokens (ES256). In the cloud the private key never leaves KMS; on the
 * embedded stack it is a PEM file under DATA_DIR. Only functions that issue tokens load this module:
 * verification needs the public key alone (token-verification-key.ts).
 */
import { config, perConfig, type ServiceConfig } from '#shared/config/index.ts';
import type { PublicJwk } from './public-jwk.ts';

export interface TokenKeys {
  publicJwk: PublicJwk;
  /** Signs the JWS signing input; returns the raw 64-byte r||s signature JWS ES256 expects. */
  sign(signingInput: Buffer): Promise<Buffer>;
}

/** Where each configuration's keys are loaded once. */
const loaded = perConfig((): { keys?: Promise<TokenKeys> } => ({}));

/** The token keys of this configuration, loaded on first use; a failed load is tried again next time. */
export function tokenKeys(): Promise<TokenKeys> {
  const slot = loaded();
  slot.keys ??= load(config()).catch((error: unknown) => {
    slot.keys = undefined;
    throw error;
  });
  return slot.keys;
}

async function load({ tokenSigningKeyId, tokenSigningKeyFile }: ServiceConfig): Promise<TokenKeys> {
  if (tokenSigningKeyFile) return (await import('./file-token-keys.ts')).fileTokenKeys(tokenSigningKeyFile);
  if (tokenSigningKeyId) return (await import('./kms-token-keys.ts')).kmsTokenKeys(tokenSigningKeyId);
  throw new Error('No token signing key is configured');
}
