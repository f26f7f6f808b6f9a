/**
 * Retries are safe: a transaction whose response was lost after it committed is not reported as a
 * conflict (ClientRequestToken), and a request repeated with its Idempotency-Key gets the first answer
 * without writing again.
 */
import { createHash } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { idempotentRequests } from '#shared/data/entities/idempotency.ts';
import { createNode, folder, urlDocument } from './helpers/library.ts';
import { createUser, grant, PASSWORD } from './helpers/personas.ts';
import { type ApiClient, type TestStack, tableClient, withAdminSession } from './helpers/test-stack.ts';

let ctx: TestStack;
let api: ApiClient;
let token: string;
let environmentId: string;

withAdminSession((session) => {
  ({ ctx, api, token, environmentId } = session);
});

const withKey = (key: string) => ({ 'idempotency-key': key });
const childrenOf = async (nodeId: string) =>
  (await api.call('GET', `/api/v1/list/${nodeId}`, { token })).body.results.map(
    (n: { name: string }) => n.name,
  );

describe('a commit whose response is lost', () => {
  it('is answered as done when the SDK retries it, not as a conflict', async () => {
    const node = await createNode(api, token, folder(environmentId, 'Lost answer'));
    ctx.stack.dynamoDb.injectFault('TransactWriteItems', 'lose-response');
    const body = {
      ...folder(environmentId, 'Renamed once'),
      nodeId: node.nodeId,
      nodeVersionId: node.nodeVersionId,
    };
    // An update that needs a transaction: with a key it also records the key.
    const updated = await api.call('PUT', `/api/v1/items/${node.nodeId}`, {
      token,
      body,
      headers: withKey('lost-1'),
    });
    expect(updated.status).toBe(200);
    expect(updated.body.version).toBe('0.0002');
    expect((await api.call('GET', `/api/v1/items/${node.nodeId}`, { token })).body.version).toBe('0.0002');

    const parent = await createNode(api, token, folder(environmentId, 'Lost create'));
    ctx.stack.dynamoDb.injectFault('TransactWriteItems', 'lose-response');
    const created = await api.call('POST', '/api/v1/items', {
      token,
      body: urlDocument(parent.nodeId, 'Once'),
    });
    expect(created.status).toBe(200);
    expect(await childrenOf(parent.nodeId)).toEqual(['Once']);
  });
});

describe('Idempotency-Key', () => {
  it('answers a repeated create with the first answer and creates once', async () => {
    const parent = await createNode(api, token, folder(environmentId, 'Keyed'));
    const send = () =>
      api.call('POST', '/api/v1/items', {
        token,
        body: urlDocument(parent.nodeId, 'Keyed doc'),
        headers: withKey('create-1'),
      });
    const first = await send();
    const again = await send();
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(await childrenOf(parent.nodeId)).toEqual(['Keyed doc']);
  });

  it('answers a repeated update and delete with their first answers and writes once', async () => {
    const node = await createNode(api, token, folder(environmentId, 'Keyed update'));
    const body = {
      ...folder(environmentId, 'Updated once'),
      nodeId: node.nodeId,
      nodeVersionId: node.nodeVersionId,
    };
    const update = () =>
      api.call('PUT', `/api/v1/items/${node.nodeId}`, { token, body, headers: withKey('update-1') });
    const first = await update();
    const again = await update();
    expect(again.body).toEqual(first.body);
    expect(again.body.version).toBe('0.0002');
    expect((await api.call('GET', `/api/v1/items/${node.nodeId}`, { token })).body.version).toBe('0.0002');

    const remove = () =>
      api.call('DELETE', `/api/v1/items/${node.nodeId}`, { token, body: {}, headers: withKey('delete-1') });
    const deleted = await remove();
    const deletedAgain = await remove();
    expect(deleted.status).toBe(200);
    expect(deletedAgain.status).toBe(200);
    expect(deletedAgain.body).toEqual(deleted.body);
  });

  it('refuses a key used for another request (422) and a malformed key (400); keys are per user', async () => {
    const parent = await createNode(api, token, folder(environmentId, 'Keys'));
    const create = (name: string, key: string, as = token) =>
      api.call('POST', '/api/v1/items', {
        token: as,
        body: urlDocument(parent.nodeId, name),
        headers: withKey(key),
      });
    expect((await create('First', 'shared-key')).status).toBe(200);
    const reused = await create('Second', 'shared-key');
    expect(reused.status).toBe(422);
    expect(reused.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    const malformed = await create('Third', 'not a key');
    expect(malformed.status).toBe(400);
    expect(malformed.body.errors).toEqual([
      expect.objectContaining({ in: 'header', path: '$.Idempotency-Key' }),
    ]);
    // Another user's same key is theirs: it does not replay the first user's answer.
    await grant(api, token, environmentId, await createUser(api, token, 'keyed-other'), 'EDITOR');
    const other = await api.login('keyed-other', PASSWORD);
    const theirs = await create('Theirs', 'shared-key', other);
    expect(theirs.status).toBe(200);
    expect(theirs.body.name).toBe('Theirs');
    expect((await childrenOf(parent.nodeId)).sort()).toEqual(['First', 'Theirs']);
  });

  it('a repeat while the first has committed but kept no answer is a 409: in use, then answer lost', async () => {
    const parent = await createNode(api, token, folder(environmentId, 'Unanswered'));
    const body = urlDocument(parent.nodeId, 'Never twice');
    const principalId = JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64url').toString()).sub;
    const fingerprint = (text: string) => createHash('sha256').update(text).digest('base64url');
    // What a function leaves when it ends after its commit and before keeping the answer.
    const recordCommitted = async (key: string, agoMs: number) => {
      const { client, TableName } = tableClient(ctx.stack);
      const committedAt = new Date(Date.now() - agoMs);
      const request = ['POST', '/api/v1/items', '', JSON.stringify(body)].join('\n');
      await client.send(
        new PutCommand({
          TableName,
          Item: idempotentRequests.toItem(
            {
              fingerprint: fingerprint(request),
              committedAt: committedAt.toISOString(),
              expiresAtEpoch: Math.floor(committedAt.getTime() / 1000) + 86_400,
            },
            principalId,
            fingerprint(key),
          ),
        }),
      );
    };
    const send = (key: string) => api.call('POST', '/api/v1/items', { token, body, headers: withKey(key) });

    await recordCommitted('unanswered-1', 1_000);
    const inUse = await send('unanswered-1');
    expect(inUse.status).toBe(409);
    expect(inUse.body.code).toBe('IDEMPOTENCY_KEY_IN_USE');
    await recordCommitted('unanswered-2', 120_000);
    const lost = await send('unanswered-2');
    expect(lost.status).toBe(409);
    expect(lost.body.code).toBe('IDEMPOTENCY_ANSWER_LOST');
    expect(await childrenOf(parent.nodeId)).toEqual([]);
  });
});
