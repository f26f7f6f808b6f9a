/** Issues access tokens: compact JWS (ES256) naming a user and a server-side session. Login only. */
import { config } from '#shared/config/index.ts';
import type { TokenSubject } from './access-tokens.ts';
import { tokenKeys } from './token-keys.ts';

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
