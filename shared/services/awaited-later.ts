/**
 * A read started early and awaited later, maybe after another read has failed the request: marked as
 * handled now, so its rejection is not an unhandled rejection (which ends a Lambda process) meanwhile.
 * Whoever awaits it still sees the rejection.
 */
export function awaitedLater<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}
