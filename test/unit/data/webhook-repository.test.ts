/** What the webhook repository writes: an administrator's change leaves the deliveries' count alone. */
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { replaceWebhook } from '#shared/data/webhook-repository.ts';
import type { Webhook } from '#shared/domain/webhooks.ts';

const ddb = mockClient(DynamoDBDocumentClient);
beforeEach(() => ddb.reset());

const webhook: Webhook = {
  webhookId: 'W1',
  url: 'https://hooks.example.com/in',
  description: 'changed',
  events: ['*'],
  nodeTypes: null,
  scopeNodeId: null,
  enabled: false,
  createdBy: 'U1',
  consecutiveFailures: 0,
  secret: 'whsec_new',
  previousSecret: 'whsec_old',
  previousSecretUntil: '2026-11-25T00:00:00.000Z',
  createdAt: '2026-11-01T00:00:00.000Z',
  modifiedAt: '2026-11-24T00:00:00.000Z',
};

describe('webhook repository', () => {
  it("writes an administrator's change field by field, never the count of failures a delivery keeps", async () => {
    ddb.on(UpdateCommand).resolves({});
    expect(await replaceWebhook(webhook, '2026-11-23T00:00:00.000Z')).toBe(true);
    const input = ddb.commandCalls(UpdateCommand)[0]?.args[0].input;
    const written = Object.fromEntries(
      Object.entries(input?.ExpressionAttributeNames ?? {}).map(([alias, name]) => [
        name,
        input?.ExpressionAttributeValues?.[alias.replace('#', ':')],
      ]),
    );
    // A stale 0 here would wipe out a failure counted meanwhile (or bring back one just reset).
    expect(written).not.toHaveProperty('consecutiveFailures');
    expect(written).toMatchObject({ url: webhook.url, enabled: false, secret: 'whsec_new' });
    expect(input?.ConditionExpression).toBe('modifiedAt = :expected');
    expect(input?.ExpressionAttributeValues?.[':expected']).toBe('2026-11-23T00:00:00.000Z');
  });
});
