/**
 * Retries are safe: a transaction whose response was lost after it committed is not reported as a
 * conflict (ClientRequestToken), and a request repeated with its Idempotency-Key gets the first answer
 * without writing again.
 */
import { describe, expect, it } from 'vitest';
import { createNode, folder, urlDocument } from './helpers/library.ts';
import { createUser, grant, PASSWORD } from './helpers/personas.ts';
import { type ApiClient, type TestStack, withAdminSession } from './helpers/test-stack.ts';

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
});
