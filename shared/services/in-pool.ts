/**
 * Runs `work` on every item, at most `width` at a time. After a failure no more items start, and the
 * whole fails once those running have ended (so a clean-up never races work still in flight).
 */
export async function inPool<T>(items: T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  const lane = async () => {
    for (let i = next++; i < items.length && !failed; i = next++) {
      try {
        await work(items[i] as T);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  const lanes = await Promise.allSettled(Array.from({ length: Math.min(width, items.length) }, lane));
  const failure = lanes.find((lane): lane is PromiseRejectedResult => lane.status === 'rejected');
  if (failure) throw failure.reason;
}
