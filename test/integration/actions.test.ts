import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWorld, type World } from './helpers/personas.ts';
import { type ApiClient, startTestStack, type TestStack } from './helpers/test-stack.ts';

let ctx: TestStack;
let api: ApiClient;
let world: World;
const token = (p: keyof World['tokens']) => world.tokens[p] as string;

beforeAll(async () => {
  ctx = await startTestStack();
  api = ctx.api;
  world = await buildWorld(api);
});
afterAll(() => ctx.close());

const assign = (body: Record<string, unknown>, as: keyof World['tokens'] = 'systemAdmin') =>
  api.call('POST', '/api/v1/admin/actions', { token: token(as), body });

describe('actions', () => {
  it('are created one per user with every §2.6 field filled truthfully', async () => {
    const document = await api.call('GET', `/api/v1/items/${world.documentA}`, {
      token: token('systemAdmin'),
    });
    const created = await assign(
      {
        actionType: 'TRAINING',
        targetNodeId: world.documentA,
        users: [world.principals.reader, world.principals.editor],
        dueDate: '2026-12-15',
        comment: 'Read the new policy',
      },
      'envAdmin',
    );
    expect(created.status).toBe(201);
    expect(created.body).toHaveLength(2);
    const [first] = created.body;
    expect(first).toMatchObject({
      actionType: 'TRAINING',
      comment: 'Read the new policy',
      dueDate: '2026-12-15',
      targetNode: {
        '@type': 'NameElement',
        nodeId: world.documentA,
        name: 'Document A',
        nodeType: 'DOCUMENT',
      },
      parent: { '@type': 'NameElement', nodeId: world.folderA, name: 'Folder A', nodeType: 'DOCUMENT_SET' },
      targetNodeVersionId: document.body.nodeVersionId,
      targetVersion: document.body.version,
      onVersion: document.body.version,
      onLatestVersion: true,
      onNextPublished: false,
      onLatestPublished: false,
      postId: null,
      sentBy: { principalId: world.principals.envAdmin, username: world.usernames.envAdmin },
      user: { principalId: world.principals.reader, username: world.usernames.reader },
      status: 'OPEN',
      completionDate: null,
    });
    expect(created.body[1].user.principalId).toBe(world.principals.editor);
    // Its URLs lead to the action and to its object.
    const viaUrl = await api.call('GET', new URL(first.actionUrl).pathname, { token: token('reader') });
    expect(viaUrl.body).toEqual(first);
    expect(
      (await api.call('GET', new URL(first.targetUrl).pathname, { token: token('reader') })).body.nodeId,
    ).toBe(world.documentA);
  });

  it('each user reads only their own actions, filtered by status and due date', async () => {
    const mine = async (persona: keyof World['tokens'], query = '') =>
      (await api.call('GET', `/api/v1/users/me/actions${query}`, { token: token(persona) })).body;
    await assign({
      actionType: 'REVIEW',
      targetNodeId: world.documentA,
      users: [world.principals.reader],
      dueDate: '2027-03-01',
    });
    const all = await mine('reader');
    expect(
      all.results.every(
        (a: { user: { principalId: string } }) => a.user.principalId === world.principals.reader,
      ),
    ).toBe(true);
    const dueDates = all.results.map((a: { dueDate: string }) => a.dueDate);
    expect(dueDates).toEqual([...dueDates].sort());
    expect(
      (await mine('reader', '?dueAfter=2027-01-01')).results.map((a: { dueDate: string }) => a.dueDate),
    ).toEqual(['2027-03-01']);
    expect(
      (await mine('reader', '?dueBefore=2026-12-31')).results.every(
        (a: { dueDate: string }) => a.dueDate <= '2026-12-31',
      ),
    ).toBe(true);
    // The sender does not see them as theirs.
    expect(
      (await mine('systemAdmin')).results.filter(
        (a: { user: { principalId: string } }) => a.user.principalId !== world.principals.systemAdmin,
      ),
    ).toEqual([]);
    const bad = await api.call('GET', '/api/v1/users/me/actions?status=LATE&dueBefore=tomorrow', {
      token: token('reader'),
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['$.dueBefore', '$.status']);
  });

  it('is completed by its assignee only, once', async () => {
    const [action] = (
      await assign({
        actionType: 'ACKNOWLEDGEMENT',
        targetNodeId: world.documentA,
        users: [world.principals.editor],
        dueDate: '2026-12-20',
      })
    ).body;
    expect(
      (await api.call('POST', `/api/v1/users/me/actions/${action.actionId}/done`, { token: token('reader') }))
        .status,
    ).toBe(404);
    const done = await api.call('POST', `/api/v1/users/me/actions/${action.actionId}/done`, {
      token: token('editor'),
    });
    expect(done.body).toMatchObject({ status: 'DONE', completionDate: expect.any(String) });
    expect(done.body.nodeVersionId).not.toBe(action.nodeVersionId);
    expect(
      (await api.call('POST', `/api/v1/users/me/actions/${action.actionId}/done`, { token: token('editor') }))
        .status,
    ).toBe(409);
    const open = await api.call('GET', '/api/v1/users/me/actions?status=OPEN', { token: token('editor') });
    expect(open.body.results.map((a: { actionId: string }) => a.actionId)).not.toContain(action.actionId);
  });

  it('refuses unknown users (naming them) and objects the sender may not publish', async () => {
    const unknown = await assign({
      actionType: 'TRAINING',
      targetNodeId: world.documentA,
      users: [world.principals.reader, 'NOBODY'],
      dueDate: '2026-12-01',
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toEqual([expect.objectContaining({ path: '$.users[1]', rule: 'exists' })]);
    const editorTries = await assign(
      {
        actionType: 'TRAINING',
        targetNodeId: world.documentA,
        users: [world.principals.reader],
        dueDate: '2026-12-01',
      },
      'editor',
    );
    expect(editorTries.status).toBe(403);
  });
});
