/**
 * The key pair behind access tokens (ES256). In the cloud the private key never leaves KMS; on the
 * embedded stack it is a PEM file under DATA_DIR. Either way verification uses the public key as a
 * JWK held in memory: tokens are never checked against a JWKS fetched over the network.
 */
import { createHash, type JsonWebKey } from 'node:crypto';
import { config, perConfig, type ServiceConfig } from '#shared/config/index.ts';

export interface PublicJwk extends JsonWebKey {
  kty: 'EC';
  crv: 'P-256';
  x: string;
  y: string;
  kid: string;
  alg: 'ES256';
  use: 'sig';
}

export interface TokenKeys {
  publicJwk: PublicJwk;
  /** Signs the JWS signing input; returns the raw 64-byte r||s signature JWS ES256 expects. */
  sign(signingInput: Buffer): Promise<Buffer>;
}

/** RFC 7638 thumbprint of the public key, used as `kid`. */
export function publicJwkOf(jwk: JsonWebKey): PublicJwk {
  if (jwk.kty !== 'EC' || jwk.crv !== 'P-256' || !jwk.x || !jwk.y)
    throw new Error('Token key must be EC P-256');
  const canonical = JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y });
  const kid = createHash('sha256').update(canonical).digest('base64url');
  return { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y, kid, alg: 'ES256', use: 'sig' };
}

/** Where each configuration's keys are loaded once (KMS: one GetPublicKey call per cold start). */
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
