/** The public half of the token key as the JWK tokens are verified with (no KMS client needed). */
import { createHash, createPublicKey, type JsonWebKey } from 'node:crypto';

export interface PublicJwk extends JsonWebKey {
  kty: 'EC';
  crv: 'P-256';
  x: string;
  y: string;
  kid: string;
  alg: 'ES256';
  use: 'sig';
}

/** RFC 7638 thumbprint of the public key, used as `kid`. */
export function publicJwkOf(jwk: JsonWebKey): PublicJwk {
  if (jwk.kty !== 'EC' || jwk.crv !== 'P-256' || !jwk.x || !jwk.y)
    throw new Error('Token key must be EC P-256');
  const canonical = JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y });
  const kid = createHash('sha256').update(canonical).digest('base64url');
  return { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y, kid, alg: 'ES256', use: 'sig' };
}

/** A DER SubjectPublicKeyInfo, as KMS GetPublicKey answers it (TOKEN_PUBLIC_KEY holds it in base64). */
export function publicJwkOfSpki(der: Uint8Array): PublicJwk {
  return publicJwkOf(
    createPublicKey({ key: Buffer.from(der), format: 'der', type: 'spki' }).export({ format: 'jwk' }),
  );
}
