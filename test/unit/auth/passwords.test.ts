import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from '#shared/auth/passwords.ts';

describe('password hashing', () => {
  it('stores scrypt at the OWASP parameters with a random salt, and verifies only the right password', async () => {
    const hash = await hashPassword('correct horse battery staple');
    expect(hash).toMatch(/^\$scrypt\$ln=17,r=8,p=1\$[\w-]{22}\$[\w-]{43}$/);
    expect(await hashPassword('correct horse battery staple')).not.toBe(hash);
    expect(await verifyPassword('correct horse battery staple', hash)).toBe(true);
    expect(await verifyPassword('correct horse battery stapl', hash)).toBe(false);
  });

  it('treats Unicode-equivalent spellings of a password alike', async () => {
    const hash = await hashPassword('caf\u00e9-passw0rd');
    expect(await verifyPassword('cafe\u0301-passw0rd', hash)).toBe(true);
  });

  it('refuses a stored value that is not a scrypt hash', async () => {
    await expect(verifyPassword('x', 'plaintext')).rejects.toThrow(/not a scrypt/);
  });
});
