/** Waiting for the change feed: the recorder has caught up and its changes are past the settle window. */
import type { EmbeddedStack } from '#infra/local/embedded-stack.ts';

export async function feedSettled(stack: EmbeddedStack, settleMs: number): Promise<void> {
  await stack.backgroundIdle();
  await new Promise((resolve) => setTimeout(resolve, settleMs + 20));
}
