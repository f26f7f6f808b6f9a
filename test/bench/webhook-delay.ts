/**
 * How long a change takes to reach a webhook endpoint on the embedded stack: a receiver on loopback is
 * registered for every event, documents are created one after another (a pause between them, as edits
 * come), and each create's delay is from its answer to the arrival of its node.created at the receiver:
 * the stream's batching, the change recorder, the stream again for the dispatcher, the delivery queue and
 * the POST. Median and p99 over the creates; every message's signature is checked as a receiver would.
 */
import { Webhook as Verifier } from 'standardwebhooks';
import { startReceiver } from '../integration/helpers/webhook-receiver.ts';
import type { BenchStack } from './bench-stack.ts';

export interface WebhookDelay {
  deliveries: number;
  medianMs: number;
  p99Ms: number;
  maxMs: number;
  /** Every message arrived once, with a signature that checks out. */
  verified: boolean;
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

export async function measureWebhookDelay(
  { api, token, stack }: BenchStack,
  creates = 200,
): Promise<WebhookDelay> {
  const receiver = await startReceiver('/bench');
  try {
    const made = await api.call('POST', '/api/v1/webhooks', {
      token,
      body: { url: receiver.url, events: ['node.created'], description: 'webhook bench' },
    });
    if (made.status !== 201) throw new Error(`webhook: ${made.status} ${made.text}`);
    const verifier = new Verifier(made.body.secret);
    const environments = await api.call('GET', '/api/v1/list?nodeType=ENVIRONMENT', { token });
    const parent = { nodeId: environments.body.results[0].nodeId };
    const folder = await api.call('POST', '/api/v1/items', {
      token,
      body: { parent, '@type': 'NodeElement', nodeType: 'DOCUMENT_SET', name: 'Webhook bench' },
    });
    await stack.backgroundIdle();
    const answeredAt = new Map<string, number>();
    for (let i = 0; i < creates; i++) {
      const created = await api.call('POST', '/api/v1/items', {
        token,
        body: {
          parent: { nodeId: folder.body.nodeId },
          '@type': 'Document',
          nodeType: 'DOCUMENT',
          documentType: 'URL',
          url: `https://example.com/${i}`,
          name: `Hooked ${i}`,
        },
      });
      answeredAt.set(created.body.nodeId, Date.now());
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await receiver.until(
      (got) => got.filter((r) => answeredAt.has(r.message.data.nodeId)).length >= creates,
      60_000,
    );
    const arrivals = receiver.received.filter((r) => answeredAt.has(r.message.data.nodeId));
    const delays = arrivals
      .map((r) => r.at - (answeredAt.get(r.message.data.nodeId) as number))
      .sort((a, b) => a - b);
    const verified =
      new Set(arrivals.map((r) => r.message.data.nodeId)).size === creates &&
      arrivals.every((r) => {
        try {
          verifier.verify(r.body, {
            'webhook-id': r.headers['webhook-id'] ?? '',
            'webhook-timestamp': r.headers['webhook-timestamp'] ?? '',
            'webhook-signature': r.headers['webhook-signature'] ?? '',
          });
          return true;
        } catch {
          return false;
        }
      });
    await api.call('DELETE', `/api/v1/webhooks/${made.body.webhookId}`, { token });
    return {
      deliveries: arrivals.length,
      medianMs: quantile(delays, 0.5),
      p99Ms: quantile(delays, 0.99),
      maxMs: delays.at(-1) ?? 0,
      verified,
    };
  } finally {
    await receiver.close();
  }
}
