/**
 * What a login costs beyond its password hash: a login over HTTP against one scrypt verification at the
 * same parameters (OWASP's N=2^17, r=8, p=1) in the same process, alternately. A ratio near 1 says the
 * hash is the cost, by design; the rest (throttle reads, the session write, the token's signature) is
 * the difference.
 */
import { hashPassword, verifyPassword } from '#shared/auth/passwords.ts';
import type { BenchStack } from './bench-stack.ts';

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

export interface LoginCost {
  /** Median of login / scrypt verification, measured alternately. */
  ratio: number;
  rounds: number;
}

export async function measureLoginCost({ stack }: BenchStack, rounds = 9): Promise<LoginCost> {
  const login = async () => {
    const answer = await fetch(`${stack.url}/api/v1/login/local`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'bench', password: 'bench-password-123' }),
      redirect: 'manual',
    });
    await answer.arrayBuffer();
    if (answer.status !== 302) throw new Error(`login answered ${answer.status}`);
  };
  const stored = await hashPassword('bench-password-123');
  const timed = async (fn: () => Promise<unknown>) => {
    const start = performance.now();
    await fn();
    return performance.now() - start;
  };
  await login();
  const ratios: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const hash = await timed(() => verifyPassword('bench-password-123', stored));
    ratios.push((await timed(login)) / hash);
  }
  return { ratio: median(ratios), rounds };
}
