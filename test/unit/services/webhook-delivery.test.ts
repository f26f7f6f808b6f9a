/**
 * A delivery is never left waiting with no message on its way: not when an attempt message is handed
 * over again after the next one failed to send, not when a replay cannot be queued; and a parked
 * delivery and its endpoint's count of failures are written together. The queue and the table are
 * mocked: what is asserted is what is sent on and what is written.
 */

import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import {
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { deliveries, type StoredDelivery, webhooks } from '#shared/data/entities/webhooks.ts';
import { deliveryKey, webhookKey } from '#shared/data/keys.ts';
import { ServiceUnavailableError } from '#shared/domain/errors.ts';
import { type Caller, toPrincipal } from '#shared/domain/user.ts';
import type { Webhook } from '#shared/domain/webhooks.ts';
import { attemptDelivery } from '#shared/services/webhook-delivery.ts';
import { replayDelivery } from '#shared/services/webhook-replay.ts';
import { sampleUser } from '../../fixtures/users.ts';

vi.stubEnv('WEBHOOK_QUEUE_URL', 'https://sqs.us-east-1.amazonaws.com/111111111111/unit-test-hooks');
afterAll(() => vi.unstubAllEnvs());

const ddb = mockClient(DynamoDBDocumentClient);
const sqs = mockClient(SQSClient);
beforeEach(() => {
  ddb.reset();
  sqs.reset();
  sqs.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [] });
});

const NOW = Date.parse('2026-11-24T12:00:00.000Z');

const delivery = (fields: Partial<StoredDelivery>): StoredDelivery => ({
  webhookId: 'W1',
  deliveryId: '2026-11-24T11:59:00.000Z_C1',
  messageId: 'C1',
  type: 'node.created',
  state: 'retrying',
  attempts: 1,
  nextAttemptAt: null,
  createdAt: '2026-11-24T11:59:00.000Z',
  deliveredAt: null,
  parkedAt: null,
  payload: '{}',
  log: [],
  expiresAtEpoch: NOW / 1000 + 86_400,
  claimedUntil: 0,
  ...fields,
});

const sentMessages = () =>
  sqs
    .commandCalls(SendMessageBatchCommand)
    .flatMap((call) => call.args[0].input.Entries ?? [])
    .map((entry) => ({ ...JSON.parse(entry.MessageBody ?? '{}'), delay: entry.DelaySeconds }));

const webhook: Webhook = {
  webhookId: 'W1',
  url: 'https://hooks.example.com/in',
  description: null,
  events: ['*'],
  nodeTypes: null,
  scopeNodeId: null,
  enabled: true,
  createdBy: 'A1',
  consecutiveFailures: 1,
  secret: 'whsec_x',
  previousSecret: null,
  previousSecretUntil: null,
  createdAt: '2026-11-01T00:00:00.000Z',
  modifiedAt: '2026-11-01T00:00:00.000Z',
};

describe('a webhook attempt message handed over again', () => {
  beforeEach(() => {
    ddb.on(GetCommand, { Key: webhookKey('W1') }).resolves({ Item: webhooks.toItem(webhook) });
  });

  it('sends the next attempt when its own was recorded but the next was never queued', async () => {
    // Attempt 0 failed, was recorded (attempts 1, retrying, due in 30 s), and the send of attempt 1's
    // message failed: the queue hands attempt 0's message over again.
    const next = new Date(NOW + 30_000).toISOString();
    ddb
      .on(GetCommand, { Key: deliveryKey('W1', delivery({}).deliveryId) })
      .resolves({ Item: deliveries.toItem(delivery({ attempts: 1, nextAttemptAt: next })) });
    await attemptDelivery({ webhookId: 'W1', deliveryId: delivery({}).deliveryId, attempt: 0 }, NOW);
    expect(sentMessages()).toEqual([
      { webhookId: 'W1', deliveryId: delivery({}).deliveryId, attempt: 1, delay: 30 },
    ]);
    // Nothing is claimed or posted for the old attempt.
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(0);
  });

  it('does nothing for an attempt the delivery has moved past, or a delivery that is done', async () => {
    for (const stored of [
      delivery({ attempts: 3, state: 'retrying' }),
      delivery({ attempts: 1, state: 'delivered' }),
      delivery({ attempts: 1, state: 'parked' }),
    ]) {
      ddb
        .on(GetCommand, { Key: deliveryKey('W1', stored.deliveryId) })
        .resolves({ Item: deliveries.toItem(stored) });
      await attemptDelivery({ webhookId: 'W1', deliveryId: stored.deliveryId, attempt: 0 }, NOW);
    }
    expect(sentMessages()).toEqual([]);
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(0);
  });
});

describe('an attempt message meeting a delivery another attempt holds', () => {
  const held = delivery({ state: 'pending', attempts: 0, claimedUntil: NOW + 25_000 });
  beforeEach(() => {
    ddb.on(GetCommand, { Key: webhookKey('W1') }).resolves({ Item: webhooks.toItem(webhook) });
    ddb.on(UpdateCommand).rejects(new ConditionalCheckFailedException({ message: 'held', $metadata: {} }));
  });
  const attempt = () => attemptDelivery({ webhookId: 'W1', deliveryId: held.deliveryId, attempt: 0 }, NOW);

  it('comes back once the claim has run out, in case its holder died with it', async () => {
    ddb
      .on(GetCommand, { Key: deliveryKey('W1', held.deliveryId) })
      .resolves({ Item: deliveries.toItem(held) });
    await attempt();
    expect(sentMessages()).toEqual([
      { webhookId: 'W1', deliveryId: held.deliveryId, attempt: 0, afterClaim: true, delay: 26 },
    ]);
  });

  it('sent again, leaves the next attempt to the message of the attempt that held it', async () => {
    const next = new Date(NOW + 30_000).toISOString();
    ddb.on(GetCommand, { Key: deliveryKey('W1', held.deliveryId) }).resolves({
      Item: deliveries.toItem({ ...held, state: 'retrying', attempts: 1, nextAttemptAt: next }),
    });
    await attemptDelivery(
      { webhookId: 'W1', deliveryId: held.deliveryId, attempt: 0, afterClaim: true },
      NOW,
    );
    expect(sentMessages()).toEqual([]);
  });

  it('is dropped when the holder finished the attempt meanwhile', async () => {
    ddb
      .on(GetCommand, { Key: deliveryKey('W1', held.deliveryId) })
      .resolvesOnce({ Item: deliveries.toItem(held) })
      .resolves({ Item: deliveries.toItem({ ...held, state: 'delivered', attempts: 1, claimedUntil: 0 }) });
    await attempt();
    expect(sentMessages()).toEqual([]);
  });
});

describe('a replay that cannot be queued', () => {
  const admin: Caller = {
    principal: toPrincipal(sampleUser({ principalId: 'A1', username: 'admin', systemAdmin: true })),
    sessionId: 'S0',
    systemAdmin: true,
    grants: {},
  };

  it('puts the delivery back as it was and answers 503, so a later replay can take it', async () => {
    const parked = delivery({ state: 'parked', attempts: 3, parkedAt: '2026-11-24T11:00:00.000Z' });
    ddb.on(GetCommand, { Key: webhookKey('W1') }).resolves({ Item: webhooks.toItem(webhook) });
    ddb
      .on(GetCommand, { Key: deliveryKey('W1', parked.deliveryId) })
      .resolves({ Item: deliveries.toItem(parked) });
    ddb
      .on(UpdateCommand)
      .resolves({ Attributes: deliveries.toItem({ ...parked, state: 'pending', attempts: 0 }) });
    ddb.on(PutCommand).resolves({});
    sqs.on(SendMessageBatchCommand).rejects(
      Object.assign(new Error('throttled'), {
        name: 'ThrottlingException',
        $retryable: { throttling: true },
      }),
    );

    await expect(replayDelivery(admin, 'W1', parked.deliveryId)).rejects.toBeInstanceOf(
      ServiceUnavailableError,
    );
    const putBack = ddb.commandCalls(PutCommand)[0]?.args[0].input;
    expect(putBack?.Item).toMatchObject({ state: 'parked', attempts: 3, parkedAt: parked.parkedAt });
    // Only over the reopened delivery it left, never over one that moved on meanwhile.
    expect(putBack?.ConditionExpression).toBe('#state = :pending AND attempts = :zero');
  });
});

describe('the last attempt of a delivery, parked', () => {
  const pending = delivery({ state: 'pending', attempts: 0 });
  const disabled = { ...webhook, enabled: false, consecutiveFailures: 2 };
  beforeEach(() => {
    ddb
      .on(GetCommand, { Key: deliveryKey('W1', pending.deliveryId) })
      .resolves({ Item: deliveries.toItem(pending) });
    ddb.on(GetCommand, { Key: webhookKey('W1') }).resolves({ Item: webhooks.toItem(disabled) });
    // The claim.
    ddb.on(UpdateCommand).resolves({ Attributes: deliveries.toItem({ ...pending, claimedUntil: NOW + 1 }) });
  });
  const attempt = () => attemptDelivery({ webhookId: 'W1', deliveryId: pending.deliveryId, attempt: 0 }, NOW);

  it('records the attempt and counts the endpoint’s failure in one transaction', async () => {
    ddb.on(TransactWriteCommand).resolves({});
    await attempt();
    const [update, note] = ddb.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems ?? [];
    expect(update?.Update?.Key).toEqual(deliveryKey('W1', pending.deliveryId));
    expect(update?.Update?.ExpressionAttributeValues).toMatchObject({ ':state': 'parked', ':next': 1 });
    expect(note?.Update).toMatchObject({
      Key: webhookKey('W1'),
      UpdateExpression: 'ADD consecutiveFailures :one',
    });
    expect(sentMessages()).toEqual([]);
  });

  it('records the attempt alone when the endpoint was deleted meanwhile', async () => {
    ddb.on(TransactWriteCommand).rejects(
      new TransactionCanceledException({
        message: 'cancelled',
        $metadata: {},
        CancellationReasons: [{ Code: 'None' }, { Code: 'ConditionalCheckFailed' }],
      }),
    );
    await attempt();
    const updates = ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input);
    // The claim, then the attempt on its own.
    expect(updates).toHaveLength(2);
    expect(updates[1]?.ExpressionAttributeValues).toMatchObject({ ':state': 'parked', ':attempt': 0 });
  });
});
