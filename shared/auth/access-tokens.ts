/**
 * Verifies access tokens (compact JWS, ES256, issued by access-token-issuer.ts) with aws-jwt-verify
 * against the in-memory public key; the session itself is checked by the caller. No KMS here.
 */
import { JwtVerifier } from 'aws-jwt-verify';
import type { JwtVerifierSingleIssuer } from 'aws-jwt-verify/jwt-verifier';
import { perConfig } from '#shared/config/index.ts';
import { UnauthenticatedError } from '#shared/domain/errors.ts';
import { verificationJwk } from './token-verification-key.ts';

export interface TokenSubject {
  principalId: string;
  username: string;
  sessionId: string;
}

// The JWKS "URI" only names the in-memory key set; verifySync never fetches it.
const JWKS_NAME = 'urn:content-repository:token-keys';

/** Each configuration's verifier, holding its public key in memory. */
const verifiers = perConfig(({ tokenIssuer, tokenAudience }) => {
  let verifier: JwtVerifierSingleIssuer<{ issuer: string; audience: string; jwksUri: string }> | undefined;
  return () => {
    if (!verifier) {
      const v = JwtVerifier.create({ issuer: tokenIssuer, audience: tokenAudience, jwksUri: JWKS_NAME });
      const { kty, crv, x, y, kid, alg, use } = verificationJwk();
      v.cacheJwks({ keys: [{ kty, crv, x, y, kid, alg, use }] });
      verifier = v;
    }
    return verifier;
  };
});

const cachedVerifier = () => verifiers()();

/** Clocks of the functions that issue and verify tokens may differ this much. */
const CLOCK_SKEW_SECONDS = 60;

const invalidToken = (why: string) => new UnauthenticatedError('INVALID_TOKEN', why);

/** A verified token: whom it names, and the lifetime it claims (epoch seconds). */
export interface VerifiedToken extends TokenSubject {
  issuedAt: number;
  expiresAt: number;
}

/** Tokens a warm instance has verified, by their whole text (most recently used last). */
const verifiedTokens = perConfig(() => new Map<string, VerifiedToken>());
const VERIFIED_TOKENS_KEPT = 1000;

/**
 * The subject of a valid token; anything else is a 401: a bad signature, alg, issuer or audience, an
 * expired token, one without `iat` or `exp`, or one issued in the future. Needs no storage call.
 *
 * A token verified before is taken from memory, by its whole text, until it expires: the same text is
 * the same signature, so nothing is trusted that was not checked (an ES256 check is a tenth of a warm
 * retrieve's CPU). Revocation is the session check's, made by the caller either way.
 */
export async function verifyAccessToken(token: string, now = new Date()): Promise<VerifiedToken> {
  const known = verifiedTokens();
  const remembered = known.get(token);
  if (remembered && remembered.expiresAt > now.getTime() / 1000) {
    known.delete(token);
    known.set(token, remembered);
    return remembered;
  }
  known.delete(token);
  const verified = verifyOnce(token, now);
  known.set(token, verified);
  if (known.size > VERIFIED_TOKENS_KEPT) known.delete(known.keys().next().value as string);
  return verified;
}

function verifyOnce(token: string, now: Date): VerifiedToken {
  const v = cachedVerifier();
  let payload: Record<string, unknown>;
  try {
    payload = v.verifySync(token) as Record<string, unknown>;
  } catch {
    throw invalidToken('The access token is invalid or has expired; log in again');
  }
  const { sub, sid, preferred_username, iat, exp } = payload;
  if (typeof iat !== 'number' || typeof exp !== 'number') {
    throw invalidToken('The access token does not say when it was issued and when it expires');
  }
  if (iat > Math.floor(now.getTime() / 1000) + CLOCK_SKEW_SECONDS) {
    throw invalidToken('The access token claims to be issued in the future');
  }
  if (typeof sub !== 'string' || typeof sid !== 'string' || typeof preferred_username !== 'string') {
    throw invalidToken('The access token does not name a user and a session');
  }
  return { principalId: sub, sessionId: sid, username: preferred_username, issuedAt: iat, expiresAt: exp };
}

/** A token's own lifetime never exceeds the longest WEBTOKEN_EXPIRES_IN, however validly it is signed: else a 401. */
export function requireLifetimeWithin(token: VerifiedToken, maxLifetimeSeconds: number): void {
  if (token.expiresAt - token.issuedAt > maxLifetimeSeconds) {
    throw invalidToken('The access token claims a lifetime this installation does not grant; log in again');
  }
}
