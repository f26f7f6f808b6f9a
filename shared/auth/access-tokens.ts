/**
 * Access tokens: compact JWS (ES256) that name a user and a server-side session. Verified with
 * aws-jwt-verify against the in-memory public key; the session itself is checked by the caller.
 */
import { JwtVerifier } from 'aws-jwt-verify';
import type { JwtVerifierSingleIssuer } from 'aws-jwt-verify/jwt-verifier';
import { config, perConfig } from '#shared/config/index.ts';
import { UnauthenticatedError } from '#shared/domain/errors.ts';
import { tokenKeys } from './token-keys.ts';

export interface TokenSubject {
  principalId: string;
  username: string;
  sessionId: string;
}

const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

export async function issueAccessToken(
  subject: TokenSubject,
  issuedAt: Date,
  expiresAt: Date,
): Promise<string> {
  const { tokenIssuer, tokenAudience } = config();
  const keys = await tokenKeys();
  const header = encode({ alg: 'ES256', typ: 'JWT', kid: keys.publicJwk.kid });
  const payload = encode({
    iss: tokenIssuer,
    aud: tokenAudience,
    sub: subject.principalId,
    sid: subject.sessionId,
    preferred_username: subject.username,
    iat: Math.floor(issuedAt.getTime() / 1000),
    exp: Math.floor(expiresAt.getTime() / 1000),
  });
  const signingInput = `${header}.${payload}`;
  const signature = await keys.sign(Buffer.from(signingInput));
  return `${signingInput}.${signature.toString('base64url')}`;
}

// The JWKS "URI" only names the in-memory key set; verifySync never fetches it.
const JWKS_NAME = 'urn:content-repository:token-keys';

/** Each configuration's verifier, holding its public key in memory. */
const verifiers = perConfig(({ tokenIssuer, tokenAudience }) => {
  let verifier:
    | Promise<JwtVerifierSingleIssuer<{ issuer: string; audience: string; jwksUri: string }>>
    | undefined;
  return () => {
    verifier ??= tokenKeys().then((keys) => {
      const v = JwtVerifier.create({ issuer: tokenIssuer, audience: tokenAudience, jwksUri: JWKS_NAME });
      const { kty, crv, x, y, kid, alg, use } = keys.publicJwk;
      v.cacheJwks({ keys: [{ kty, crv, x, y, kid, alg, use }] });
      return v;
    });
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

/**
 * The subject of a valid token; anything else is a 401: a bad signature, alg, issuer or audience, an
 * expired token, one without `iat` or `exp`, or one issued in the future. Needs no storage call.
 */
export async function verifyAccessToken(token: string, now = new Date()): Promise<VerifiedToken> {
  const v = await cachedVerifier();
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

/** A token's own lifetime never exceeds WEBTOKEN_EXPIRES_IN, however validly it is signed: else a 401. */
export function requireLifetimeWithin(token: VerifiedToken, maxLifetimeSeconds: number): void {
  if (token.expiresAt - token.issuedAt > maxLifetimeSeconds) {
    throw invalidToken('The access token claims a lifetime this installation does not grant; log in again');
  }
}
