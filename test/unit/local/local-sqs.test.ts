/**
 * The embedded SQS as a function sending to it and a Lambda event source mapping reading from it meet
 * it: messages sent with the SDK, held back by their delay, handed over in batches, a failed one back
 * after the visibility timeout and to the dead-letter queue after its last receive, and kept across a
 * restart.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SendMessageBatchCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { SQSEvent } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import { type LocalSqs, startLocalSqs } from '#infra/local/local-sqs.ts';
import { EMBEDDED_CREDENTIALS } from '#shared/clients/aws-client-settings.ts';

const folders: string[] = [];
const stacks: LocalSqs[] = [];
afterEach(async () => {
  for (const sqs of stacks.splice(0)) await sqs.close();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

async function start(dataDir: string, consumer: (event: SQSEvent) => Promise<unknown>, visibility = 1) {
  const sqs = await startLocalSqs({
    dataDir,
    queues: {
      work: { consumer: consumer as never, visibilityTimeoutSeconds: visibility, maxReceiveCount: 2 },
    },
    run: (fn) => fn(),
  });
  stacks.push(sqs);
  const client = new SQSClient({
    endpoint: sqs.endpoint,
    region: 'us-east-1',
    credentials: EMBEDDED_CREDENTIALS,
  });
  return { sqs, client, QueueUrl: sqs.queueUrl('work') };
}

const fresh = () => {
  const folder = mkdtempSync(join(tmpdir(), 'local-sqs-'));
  folders.push(folder);
  return folder;
};

describe('the embedded SQS', () => {
  it('hands messages over in batches, after their delay', async () => {
    const seen: { body: string; at: number }[] = [];
    const { sqs, client, QueueUrl } = await start(fresh(), async (event) => {
      for (const r of event.Records) seen.push({ body: r.body, at: Date.now() });
    });
    const sent = Date.now();
    await client.send(
      new SendMessageBatchCommand({
        QueueUrl,
        Entries: [
          { Id: 'a', MessageBody: 'now' },
          { Id: 'b', MessageBody: 'later', DelaySeconds: 1 },
        ],
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 1300));
    await sqs.idle();
    expect(seen.map((s) => s.body)).toEqual(['now', 'later']);
    expect((seen[1]?.at ?? 0) - sent).toBeGreaterThanOrEqual(950);
    client.destroy();
  });

  it('hands a failed message over again after the visibility timeout, then parks it in the dead-letter queue', async () => {
    const receives: string[] = [];
    const { sqs, client, QueueUrl } = await start(fresh(), async (event) => ({
      batchItemFailures: event.Records.filter((r) => r.body === 'bad').map((r) => {
        receives.push(r.attributes.ApproximateReceiveCount);
        return { itemIdentifier: r.messageId };
      }),
    }));
    await client.send(new SendMessageCommand({ QueueUrl, MessageBody: 'bad' }));
    await client.send(new SendMessageCommand({ QueueUrl, MessageBody: 'good' }));
    await new Promise((resolve) => setTimeout(resolve, 1300));
    await sqs.idle();
    expect(receives).toEqual(['1', '2']);
    expect(sqs.deadLetters('work').map((m) => m.body)).toEqual(['bad']);
    client.destroy();
  });

  it('keeps messages not yet handed over across a restart', async () => {
    const dataDir = fresh();
    const first = await start(dataDir, async () => undefined);
    await first.client.send(
      new SendMessageCommand({ QueueUrl: first.QueueUrl, MessageBody: 'kept', DelaySeconds: 1 }),
    );
    first.client.destroy();
    await first.sqs.close();
    stacks.splice(stacks.indexOf(first.sqs), 1);
    const seen: string[] = [];
    const second = await start(dataDir, async (event) => {
      for (const r of event.Records) seen.push(r.body);
    });
    await new Promise((resolve) => setTimeout(resolve, 1200));
    await second.sqs.idle();
    expect(seen).toEqual(['kept']);
    second.client.destroy();
  });

  it('keeps a message being handled hidden across a crash until its visibility timeout, as SQS does', async () => {
    const dataDir = fresh();
    let release: () => void = () => undefined;
    const stuck = new Promise<void>((resolve) => {
      release = resolve;
    });
    let received = 0;
    const first = await start(
      dataDir,
      async () => {
        received++;
        await stuck;
      },
      30,
    );
    await first.client.send(new SendMessageCommand({ QueueUrl: first.QueueUrl, MessageBody: 'in hand' }));
    while (received === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    // A second start on the same data folder while the first still holds the message: a restart after
    // a crash finds the folder as the crash left it.
    const seen: string[] = [];
    try {
      const second = await start(dataDir, async (event) => {
        for (const r of event.Records) seen.push(r.body);
      });
      second.client.destroy();
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(seen).toEqual([]);
    } finally {
      release();
      first.client.destroy();
    }
  });

  it('answers SQS errors the SDK understands', async () => {
    const { client, sqs } = await start(fresh(), async () => undefined);
    await expect(
      client.send(
        new SendMessageCommand({ QueueUrl: `${sqs.endpoint}/000000000000/missing`, MessageBody: 'x' }),
      ),
    ).rejects.toMatchObject({ name: 'QueueDoesNotExist' });
    await expect(
      client.send(
        new SendMessageCommand({ QueueUrl: sqs.queueUrl('work'), MessageBody: 'x', DelaySeconds: 901 }),
      ),
    ).rejects.toThrow(/DelaySeconds/);
    client.destroy();
  });
});
