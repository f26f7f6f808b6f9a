/**
 * The key pair behind access tokens (ES256). In the cloud the private key never leaves KMS; on the
 * embedded stack it is a PEM file under DATA_DIR. Either way verification uses the public key as a
 * JWK held in memory: tokens are never checked against a JWKS fetched over the network.
 */
import { createHash, type JsonWebKey } from 'node:crypto';
import { config } from '#shared/config/index.ts';

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

let keys: Promise<TokenKeys> | undefined;

/** The token keys of this process, loaded once (KMS: one GetPublicKey call per cold start). */
export function tokenKeys(): Promise<TokenKeys> {
  keys ??= load().catch((error: unknown) => {
    keys = undefined;
    throw error;
  });
  return keys;
}

async function load(): Promise<TokenKeys> {
  const { tokenSigningKeyId, tokenSigningKeyFile } = config();
  if (tokenSigningKeyFile) return (await import('./file-token-keys.ts')).fileTokenKeys(tokenSigningKeyFile);
  if (tokenSigningKeyId) return (await import('./kms-token-keys.ts')).kmsTokenKeys(tokenSigningKeyId);
  throw new Error('No token signing key is configured');
}
