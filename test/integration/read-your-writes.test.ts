/**
 * DynamoDB's indexes lag the table. With the embedded DynamoDB's index lag on (index queries answer items
 * as they stood a minute ago), what a user has just done still holds: sessions a password change or a
 * disabled account ends are refused at once, though the index the clean-up reads has not caught up, and
 * an action just completed is listed as done, not open.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildWorld, createUser, PASSWORD, type World } from './helpers/personas.ts';
import { type ApiClient, startTestStack, type TestStack } from './helpers/test-stack.ts';

const A_MINUTE = 60_000;
const LIST = '/api/v1/list?nodeType=ENVIRONMENT';

let ctx: TestStack;
let api: ApiClient;
let world: World;
let admin: string;

beforeAll(async () => {
  ctx = await startTestStack();
  api = ctx.api;
  world = await buildWorld(api);
  admin = world.tokens.systemAdmin as string;
});
afterAll(() => ctx.close());
afterEach(() => ctx.stack.dynamoDb.setIndexLag(0));

describe('sessions, with index reads a minute behind', () => {
  it('a password change ends the other sessions at once, and keeps this one', async () => {
    await createUser(api, admin, 'lag-erin');
    ctx.stack.dynamoDb.setIndexLag(A_MINUTE);
    const here = await api.login('lag-erin', PASSWORD);
    const elsewhere = await api.login('lag-erin', PASSWORD);
    const changed = await api.call('PUT', '/api/v1/users/me/password', {
      token: here,
      body: { oldPassword: PASSWORD, newPassword: 'brand-new-password' },
    });
    expect(changed.status).toBe(204);
    expect((await api.call('GET', LIST, { token: elsewhere })).status).toBe(401);
    expect((await api.call('GET', LIST, { token: here })).status).toBe(200);
  });

  it('an administrator’s password reset, or disabling the user, ends their sessions at once', async () => {
    const reset = await createUser(api, admin, 'lag-frank');
    const disabled = await createUser(api, admin, 'lag-gina');
    ctx.stack.dynamoDb.setIndexLag(A_MINUTE);
    const resetToken = await api.login('lag-frank', PASSWORD);
    const disabledToken = await api.login('lag-gina', PASSWORD);
    const changes = [
      [reset, { password: 'administrator-chosen-1' }],
      [disabled, { status: 'DISABLED' }],
    ] as const;
    for (const [principalId, body] of changes) {
      const patched = await api.call('PATCH', `/api/v1/admin/users/${principalId}`, { token: admin, body });
      expect(patched.status).toBe(200);
    }
    expect((await api.call('GET', LIST, { token: resetToken })).status).toBe(401);
    expect((await api.call('GET', LIST, { token: disabledToken })).status).toBe(401);
  });
});

describe('lists, with index reads a minute behind', () => {
  it('answer every list as the index stood: what was there is listed, a create just made not yet', async () => {
    ctx.stack.dynamoDb.setIndexLag(A_MINUTE);
    const created = await api.call('POST', '/api/v1/items', {
      token: admin,
      body: {
        parent: { nodeId: world.folderA },
        '@type': 'NodeElement',
        nodeType: 'DOCUMENT_SET',
        name: 'Lagging',
      },
    });
    expect(created.status).toBe(200);
    const ids = async (path: string) => {
      const page = await api.call('GET', path, { token: admin });
      expect(page.status, `${path}: ${page.text}`).toBe(200);
      return page.body.results.map((n: { nodeId: string }) => n.nodeId);
    };
    expect(await ids(LIST)).toEqual(expect.arrayContaining([world.envA, world.envB]));
    const children = await ids(`/api/v1/list/${world.folderA}?sortKey=name`);
    expect(children).toContain(world.documentA);
    expect(children).not.toContain(created.body.nodeId);
    expect(await ids('/api/v1/document/list')).toContain(world.documentA);
    expect(await ids('/api/v1/list?nodeType=DOCUMENT&pageSize=5')).toContain(world.documentA);
    // The object itself is read from the table: there at once.
    expect((await api.call('GET', `/api/v1/items/${created.body.nodeId}`, { token: admin })).status).toBe(
      200,
    );
  });
});

describe('actions, with index reads a minute behind', () => {
  it('an action just completed is listed as done, not open', async () => {
    const assigned = await api.call('POST', '/api/v1/admin/actions', {
      token: admin,
      body: {
        actionType: 'ACKNOWLEDGEMENT',
        targetNodeId: world.documentA,
        users: [world.principals.reader],
        dueDate: '2027-01-10',
      },
    });
    expect(assigned.status).toBe(201);
    const actionId = assigned.body[0].actionId as string;
    const reader = world.tokens.reader as string;
    ctx.stack.dynamoDb.setIndexLag(A_MINUTE);
    const done = await api.call('POST', `/api/v1/users/me/actions/${actionId}/done`, { token: reader });
    expect(done.status).toBe(200);

    const listed = async (query: string) =>
      (await api.call('GET', `/api/v1/users/me/actions${query}`, { token: reader })).body.results.filter(
        (a: { actionId: string }) => a.actionId === actionId,
      );
    expect(await listed('?status=OPEN')).toEqual([]);
    expect(await listed('?status=DONE')).toMatchObject([{ status: 'DONE' }]);
    expect(await listed('')).toMatchObject([{ status: 'DONE', completionDate: expect.any(String) }]);
  });
});
