/** Token keys held by an asymmetric KMS key (ECC_NIST_P256, SIGN_VERIFY). */
import { SignCommand } from '@aws-sdk/client-kms';
import ecdsaSigFormatter from 'ecdsa-sig-formatter';
import { kms } from '#shared/clients/kms.ts';
import type { TokenKeys } from './token-keys.ts';
import { verificationJwk } from './token-verification-key.ts';

/** Signs with KMS; the public half (for `kid`) was read at deploy time (TOKEN_PUBLIC_KEY): no call. */
export async function kmsTokenKeys(keyId: string): Promise<TokenKeys> {
  const publicJwk = verificationJwk();
  return {
    publicJwk,
    async sign(signingInput) {
      const { Signature } = await kms().send(
        new SignCommand({
          KeyId: keyId,
          // A JWS signing input is a few hundred bytes, well under KMS's 4096-byte limit for RAW messages.
          Message: signingInput,
          MessageType: 'RAW',
          SigningAlgorithm: 'ECDSA_SHA_256',
        }),
      );
      if (!Signature) throw new Error('KMS returned no signature');
      // KMS answers a DER-encoded ECDSA signature; JWS ES256 wants the raw 64-byte r||s.
      return Buffer.from(ecdsaSigFormatter.derToJose(Buffer.from(Signature), 'ES256'), 'base64url');
    },
  };
}
