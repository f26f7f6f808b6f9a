/**
 * Password hashing with scrypt at the OWASP Password Storage Cheat Sheet parameters
 * (N=2^17, r=8, p=1: 128 MiB and a few hundred milliseconds per hash), stored PHC-style so the
 * parameters can be raised later without breaking existing hashes.
 */
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

const LOG_N = 17;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;

function derive(password: string, salt: Buffer, logN: number, r: number, p: number): Promise<Buffer> {
  const N = 2 ** logN;
  return new Promise((resolve, reject) =>
    // maxmem must exceed 128 * N * r bytes, or Node refuses these parameters.
    scrypt(
      password.normalize('NFC'),
      salt,
      KEY_LENGTH,
      { N, r, p, maxmem: 129 * N * r + 1024 * 1024 },
      (err, key) => (err ? reject(err) : resolve(key)),
    ),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const key = await derive(password, salt, LOG_N, R, P);
  return `$scrypt$ln=${LOG_N},r=${R},p=${P}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

const PHC = /^\$scrypt\$ln=(\d+),r=(\d+),p=(\d+)\$([\w-]+)\$([\w-]+)$/;

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const match = PHC.exec(stored);
  if (!match) throw new Error('Stored password hash is not a scrypt PHC string');
  const [, logN, r, p, salt, key] = match as unknown as [string, string, string, string, string, string];
  const expected = Buffer.from(key, 'base64url');
  const actual = await derive(password, Buffer.from(salt, 'base64url'), Number(logN), Number(r), Number(p));
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/**
 * A hash of no real password, checked when the username is unknown so that an unknown user takes
 * as long to refuse as a wrong password.
 */
let decoy: Promise<string> | undefined;
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword(randomBytes(16).toString('hex'));
  return decoy;
}
