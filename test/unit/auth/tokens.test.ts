/**
 * Access tokens signed through KMS (mocked with a real P-256 key) and verified from the public key the
 * stack hands every function (TOKEN_PUBLIC_KEY): valid tokens pass; every kind of forged or stale token
 * is a 401; verifying never calls KMS.
 */
import { createHmac, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { KMSClient, SignCommand } from '@aws-sdk/client-kms';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeAll, describe, expect, it } from 'vitest';
import { issueAccessToken } from '#shared/auth/access-token-issuer.ts';
import { requireLifetimeWithin, verifyAccessToken } from '#shared/auth/access-tokens.ts';
import { ConfigError, readServiceConfig, withConfig } from '#shared/config/index.ts';
import { UnauthenticatedError } from '#shared/domain/errors.ts';

const kms = mockClient(KMSClient);
const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const KEY_ID = 'arn:aws:kms:us-east-1:111111111111:key/unit-test';

// What the stack's TokenPublicKey resource reads from KMS GetPublicKey at deploy time.
process.env.TOKEN_PUBLIC_KEY = publicKey.export({ format: 'der', type: 'spki' }).toString('base64');

beforeAll(() => {
  // KMS signs the message and answers a DER-encoded ECDSA signature.
  kms.on(SignCommand).callsFake(async (input: { Message: Uint8Array; KeyId: string }) => {
    if (input.KeyId !== KEY_ID) throw new Error('wrong key');
    return {
      Signature: new Uint8Array(
        sign('sha256', Buffer.from(input.Message), { key: privateKey, dsaEncoding: 'der' }),
      ),
    };
  });
});

const subject = { principalId: 'U1', username: 'ann', sessionId: 'S1' };
/** WEBTOKEN_EXPIRES_IN of one day, in seconds. */
const DAY = 24 * 3600;

/** What authentication does with a token: verify it, then bound its lifetime by WEBTOKEN_EXPIRES_IN. */
async function verifyAndBound(token: string) {
  const verified = await verifyAccessToken(token);
  requireLifetimeWithin(verified, DAY);
  const { issuedAt: _issued, expiresAt: _expires, ...named } = verified;
  return named;
}
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const now = () => Math.floor(Date.now() / 1000);

function signES256(header: object, payload: object, key: KeyObject = privateKey) {
  const input = `${b64(header)}.${b64(payload)}`;
  return `${input}.${sign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
}

async function kid(): Promise<string> {
  const token = await issueAccessToken(subject, new Date(), new Date(Date.now() + 60_000));
  return JSON.parse(Buffer.from(token.split('.')[0] as string, 'base64url').toString()).kid;
}

const claims = () => ({
  iss: 'content-repository',
  aud: 'content-repository-api',
  sub: 'U1',
  sid: 'S1',
  preferred_username: 'ann',
  iat: now(),
  exp: now() + 600,
});

async function refused(token: string) {
  const error = await verifyAndBound(token).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(UnauthenticatedError);
  expect((error as UnauthenticatedError).code).toBe('INVALID_TOKEN');
}

describe('tokens signed through KMS', () => {
  it('issues an ES256 JWT (raw r||s signature) that verifies and names user and session', async () => {
    const token = await issueAccessToken(subject, new Date(), new Date(Date.now() + 60_000));
    const [header, , signature] = token.split('.') as [string, string, string];
    expect(JSON.parse(Buffer.from(header, 'base64url').toString())).toMatchObject({
      alg: 'ES256',
      typ: 'JWT',
    });
    expect(Buffer.from(signature, 'base64url')).toHaveLength(64);
    expect(await verifyAndBound(token)).toEqual(subject);
    expect(kms.commandCalls(SignCommand)[0]?.args[0].input).toMatchObject({
      KeyId: KEY_ID,
      MessageType: 'RAW',
      SigningAlgorithm: 'ECDSA_SHA_256',
    });
  });

  it('calls KMS only to sign: the public key comes from TOKEN_PUBLIC_KEY', async () => {
    kms.resetHistory();
    await verifyAndBound(await issueAccessToken(subject, new Date(), new Date(Date.now() + 60_000)));
    expect(kms.calls().map((call) => call.args[0].constructor.name)).toEqual(['SignCommand']);
  });

  it('a function given the KMS key without TOKEN_PUBLIC_KEY names the missing variable', async () => {
    const { TOKEN_PUBLIC_KEY: _given, ...env } = process.env;
    const error = await withConfig(readServiceConfig(env), () => verifyAccessToken('a.b.c')).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ConfigError);
    expect(String(error)).toContain('TOKEN_PUBLIC_KEY');
  });

  it('a TOKEN_PUBLIC_KEY that is not base64 is a configuration error naming it', () => {
    expect(() => readServiceConfig({ ...process.env, TOKEN_PUBLIC_KEY: 'not base64!' })).toThrow(
      /TOKEN_PUBLIC_KEY must be a base64 DER public key/,
    );
  });
});

describe('tokens verified before', () => {
  it('are taken from memory until they expire, and a changed copy is checked like any other', async () => {
    const token = await issueAccessToken(subject, new Date(), new Date(Date.now() + 1500));
    expect(await verifyAndBound(token)).toEqual(subject);
    expect(await verifyAndBound(token)).toEqual(subject);
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const flipped = `${signature.slice(0, -2)}${signature.at(-2) === 'A' ? 'B' : 'A'}${signature.at(-1)}`;
    await refused(`${header}.${payload}.${flipped}`);
    await new Promise((resolve) => setTimeout(resolve, 1600));
    await refused(token);
  });
});

describe('refused tokens', () => {
  it('alg none', async () => {
    await refused(`${b64({ alg: 'none', typ: 'JWT', kid: await kid() })}.${b64(claims())}.`);
  });

  it('HS256 signed with the public key as the secret', async () => {
    const header = { alg: 'HS256', typ: 'JWT', kid: await kid() };
    const input = `${b64(header)}.${b64(claims())}`;
    const secret = publicKey.export({ format: 'pem', type: 'spki' });
    await refused(`${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`);
  });

  it('expired', async () => {
    await refused(
      signES256(
        { alg: 'ES256', typ: 'JWT', kid: await kid() },
        { ...claims(), iat: now() - 7200, exp: now() - 3600 },
      ),
    );
  });

  it('wrong issuer or audience', async () => {
    const header = { alg: 'ES256', typ: 'JWT', kid: await kid() };
    await refused(signES256(header, { ...claims(), iss: 'someone-else' }));
    await refused(signES256(header, { ...claims(), aud: 'another-api' }));
  });

  it('signed by another key', async () => {
    const other = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
    await refused(signES256({ alg: 'ES256', typ: 'JWT', kid: await kid() }, claims(), other));
  });

  it('a valid signature over claims that do not name a session', async () => {
    const { sid: _sid, ...noSession } = claims();
    const error = await verifyAndBound(
      signES256({ alg: 'ES256', typ: 'JWT', kid: await kid() }, noSession),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnauthenticatedError);
  });

  it('a valid signature without exp, or without iat', async () => {
    const header = { alg: 'ES256', typ: 'JWT', kid: await kid() };
    const { exp: _exp, ...noExpiry } = claims();
    const { iat: _iat, ...noIssuedAt } = claims();
    await refused(signES256(header, noExpiry));
    await refused(signES256(header, noIssuedAt));
  });

  it('a valid signature over a lifetime longer than WEBTOKEN_EXPIRES_IN (ten years, or a day and a minute)', async () => {
    const header = { alg: 'ES256', typ: 'JWT', kid: await kid() };
    await refused(signES256(header, { ...claims(), exp: now() + 10 * 365 * DAY }));
    await refused(signES256(header, { ...claims(), exp: now() + DAY + 60 }));
  });

  it('a token issued in the future', async () => {
    const header = { alg: 'ES256', typ: 'JWT', kid: await kid() };
    await refused(signES256(header, { ...claims(), iat: now() + 3600, exp: now() + 4000 }));
  });

  it('a well-formed token is accepted (the attacks above fail for their own reason)', async () => {
    expect(await verifyAndBound(signES256({ alg: 'ES256', typ: 'JWT', kid: await kid() }, claims()))).toEqual(
      subject,
    );
    // A lifetime of exactly WEBTOKEN_EXPIRES_IN is what login issues.
    const fullDay = { ...claims(), exp: now() + DAY };
    expect(await verifyAndBound(signES256({ alg: 'ES256', typ: 'JWT', kid: await kid() }, fullDay))).toEqual(
      subject,
    );
  });
});
