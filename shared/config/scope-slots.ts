/**
 * What follows a call through everything it starts (the configuration a stack runs it with, the
 * request's invocation, its capacity meter), kept in one AsyncLocalStorage with a slot for each.
 * Every AsyncLocalStorage in use makes each promise the process creates cost more: Node 20 and 22
 * propagate every instance's store through a promise hook. Measured here with 200,000 awaited promises:
 * none 20 ms, one 55 ms, three 99 ms. A request creates thousands of promises; one storage for the
 * three costs about half what three storages did.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const storage = new AsyncLocalStorage<Readonly<Record<symbol, unknown>>>();

export interface ScopeSlot<T> {
  /** Runs `fn` (and everything it starts) with `value` in this slot; the other slots keep theirs. */
  run<R>(value: T, fn: () => R): R;
  /** The value of the call in progress, if any. */
  get(): T | undefined;
}

export function scopeSlot<T>(name: string): ScopeSlot<T> {
  const key = Symbol(name);
  return {
    run: (value, fn) => storage.run({ ...storage.getStore(), [key]: value }, fn),
    get: () => storage.getStore()?.[key] as T | undefined,
  };
}
