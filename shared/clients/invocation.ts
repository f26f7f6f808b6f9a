/**
 * What the data layer knows of the request it works for: its id (so the writes of a request have
 * ClientRequestTokens derived from it) and, when the client sent an Idempotency-Key, the claim to record
 * with the write that completes the request.
 */
import { createHash, randomUUID } from 'node:crypto';
import { scopeSlot } from '#shared/config/scope-slots.ts';

export interface IdempotencyClaim {
  /** The record's key: the caller and their Idempotency-Key. */
  principalId: string;
  key: string;
  /** What the request was (method, path, query, body), so a reuse for another request is told apart. */
  fingerprint: string;
  /** Set once a commit recorded the claim together with the request's writes. */
  committed: boolean;
}

interface Invocation {
  requestId: string;
  tokens: number;
  idempotency?: IdempotencyClaim;
}

const scope = scopeSlot<Invocation>('invocation');

export function withInvocation<T>(requestId: string, fn: () => Promise<T>): Promise<T> {
  return scope.run({ requestId, tokens: 0 }, fn);
}

export const currentInvocation = (): Invocation | undefined => scope.get();

/**
 * A ClientRequestToken for the next transaction attempt of this request: derived from the request id
 * and the attempt's place among the request's attempts, so it names exactly one attempt. The SDK sends
 * it again when it retries that attempt (a timeout after a commit then answers success, not a conflict).
 */
export function nextClientRequestToken(): string {
  const invocation = scope.get();
  if (!invocation) return randomUUID();
  const n = invocation.tokens++;
  return createHash('sha256').update(`${invocation.requestId}#${n}`).digest('hex').slice(0, 36);
}
