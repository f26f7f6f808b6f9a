import { DeleteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actionKey, userKey } from '#shared/data/keys.ts';
import { createNode, urlDocument } from './helpers/library.ts';
import { buildWorld, createUser, grant, PASSWORD, type World } from './helpers/personas.ts';
import { type ApiClient, startTestStack, type TestStack, tableClient } from './helpers/test-stack.ts';

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

/** One action of `actionType` on `targetNodeId` for one user, due on `dueDate`: the action created. */
const assignOne = async (
  fields: { actionType: string; targetNodeId: string; user: string; dueDate: string },
  as: keyof World['tokens'] = 'systemAdmin',
) => {
  const { user, ...rest } = fields;
  return (await assign({ ...rest, users: [user] }, as)).body[0];
};

/** A new document folder in environment B, made by the system administrator. */
const folderInEnvB = async (name: string) =>
  (
    await api.call('POST', '/api/v1/items', {
      token: token('systemAdmin'),
      body: { parent: { nodeId: world.envB }, '@type': 'NodeElement', nodeType: 'DOCUMENT_SET', name },
    })
  ).body as { nodeId: string };

/** Renames an object (its detailed retrieve sent back with the new name and `changes`): the object as updated. */
const rename = async (nodeId: string, name: string, changes: Record<string, unknown> = {}) => {
  const admin = token('systemAdmin');
  const { parent: _parent, ...current } = (
    await api.call('GET', `/api/v1/items/${nodeId}?detail=true`, { token: admin })
  ).body;
  const renamed = await api.call('PUT', `/api/v1/items/${nodeId}`, {
    token: admin,
    body: { ...current, ...changes, name },
  });
  expect(renamed.status, renamed.text).toBe(200);
  return renamed.body as { nodeId: string; nodeVersionId: string };
};

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
    // The reader sees the action as created, except the sender's contact details, which are not theirs.
    expect(viaUrl.body).toEqual({ ...first, sentBy: { ...first.sentBy, email: null, phone: null } });
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
    const action = await assignOne({
      actionType: 'ACKNOWLEDGEMENT',
      targetNodeId: world.documentA,
      user: world.principals.editor,
      dueDate: '2026-12-20',
    });
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

  it('refuses a due date that is not on the calendar, creating nothing, and keeps a leap day', async () => {
    const listed = async () => {
      const mine = await api.call('GET', '/api/v1/users/me/actions?pageSize=1000', {
        token: token('reader'),
      });
      expect(mine.status).toBe(200);
      return mine.body.results.map((a: { actionId: string }) => a.actionId).sort();
    };
    const before = await listed();
    const training = (dueDate: string) => ({
      actionType: 'TRAINING',
      targetNodeId: world.documentA,
      users: [world.principals.reader],
      dueDate,
      comment: 'x',
    });
    for (const dueDate of [
      '2027-02-30',
      '2027-04-31',
      '2027-02-29',
      '2100-02-29',
      '2027-13-01',
      '2027-00-10',
    ]) {
      const refused = await assign(training(dueDate));
      expect(refused.status, dueDate).toBe(400);
      expect(refused.headers.get('content-type')).toBe('application/problem+json');
      expect(refused.body.errors).toEqual([
        expect.objectContaining({ in: 'body', path: '$.dueDate', rule: 'invalid_format' }),
      ]);
    }
    expect(await listed()).toEqual(before);

    const created = await assign(training('2028-02-29'));
    expect(created.status).toBe(201);
    const [action] = created.body;
    expect(action.dueDate).toBe('2028-02-29');
    const read = await api.call('GET', `/api/v1/admin/actions/${action.actionId}`, {
      token: token('reader'),
    });
    expect(read.status).toBe(200);
    expect(read.body.dueDate).toBe('2028-02-29');
    expect(await listed()).toEqual([...before, action.actionId].sort());
    const done = await api.call('POST', `/api/v1/users/me/actions/${action.actionId}/done`, {
      token: token('reader'),
    });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ dueDate: '2028-02-29', status: 'DONE' });
  });

  it('refuses dueBefore and dueAfter that are not on the calendar, and filters by a leap day', async () => {
    for (const [name, value] of [
      ['dueBefore', '2027-02-30'],
      ['dueAfter', '2027-04-31'],
      ['dueBefore', '2027-02-29'],
    ]) {
      const refused = await api.call('GET', `/api/v1/users/me/actions?${name}=${value}`, {
        token: token('reader'),
      });
      expect(refused.status, `${name}=${value}`).toBe(400);
      expect(refused.headers.get('content-type')).toBe('application/problem+json');
      expect(refused.body.errors).toEqual([
        expect.objectContaining({ in: 'query', path: `$.${name}`, rule: 'invalid_format' }),
      ]);
    }
    const onLeapDay = await assignOne({
      actionType: 'REVIEW',
      targetNodeId: world.documentA,
      user: world.principals.reader,
      dueDate: '2028-02-29',
    });
    const leap = await api.call('GET', '/api/v1/users/me/actions?dueAfter=2028-02-29&dueBefore=2028-02-29', {
      token: token('reader'),
    });
    expect(leap.status).toBe(200);
    expect(leap.body.results.map((a: { actionId: string }) => a.actionId)).toContain(onLeapDay.actionId);
    expect(leap.body.results.every((a: { dueDate: string }) => a.dueDate === '2028-02-29')).toBe(true);
  });

  it('refuses unknown users (naming them) and objects the sender may not publish', async () => {
    const unknown = await assign({
      actionType: 'TRAINING',
      targetNodeId: world.documentA,
      users: [world.principals.reader, '00000000-0000-4000-8000-000000000000'],
      dueDate: '2026-12-01',
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toEqual([
      expect.objectContaining({ path: '$.users[1]', rule: 'assignable' }),
    ]);
    // Named where it was sent, whatever repeats come before it.
    const repeated = await assign({
      actionType: 'TRAINING',
      targetNodeId: world.documentA,
      users: [world.principals.reader, world.principals.reader, '00000000-0000-4000-8000-000000000000'],
      dueDate: '2026-12-01',
    });
    expect(repeated.body.errors).toEqual([
      expect.objectContaining({ path: '$.users[2]', rule: 'assignable' }),
    ]);
    const malformed = await assign({
      actionType: 'TRAINING',
      targetNodeId: world.documentA,
      users: ['NOBODY'],
      dueDate: '2026-12-01',
    });
    expect(malformed.body.errors).toEqual([expect.objectContaining({ path: '$.users[0]' })]);
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

  it('refuses an assignee who cannot read the object, and an environment admin cannot reach users of another environment', async () => {
    const training = (users: string[]) => ({
      actionType: 'TRAINING',
      targetNodeId: world.documentA,
      users,
      dueDate: '2026-12-01',
    });
    // otherEnvAdmin holds a role in environment B only: document A is not theirs to read.
    for (const as of ['systemAdmin', 'envAdmin'] as const) {
      const refused = await assign(training([world.principals.reader, world.principals.otherEnvAdmin]), as);
      expect(refused.status).toBe(400);
      expect(refused.body.errors).toEqual([
        expect.objectContaining({ path: '$.users[1]', rule: 'assignable' }),
      ]);
    }
    // An environment admin learns nothing of a user they cannot assign: the same answer as for nobody.
    const nobody = await assign(training(['00000000-0000-4000-8000-000000000000']), 'envAdmin');
    const foreign = await assign(training([world.principals.otherEnvAdmin]), 'envAdmin');
    expect(foreign.body.errors).toEqual(nobody.body.errors);
    const mine = await api.call('GET', '/api/v1/users/me/actions', { token: token('otherEnvAdmin') });
    expect(mine.body.results).toEqual([]);
  });

  it('shows contact details of a user only to that user and to system administrators', async () => {
    const contact = { email: 'reader@example.com', phone: '+41 44 000 00 00' };
    const updated = await api.call('PATCH', `/api/v1/admin/users/${world.principals.reader}`, {
      token: token('systemAdmin'),
      body: contact,
    });
    expect(updated.status).toBe(200);
    const created = await assignOne(
      {
        actionType: 'REVIEW',
        targetNodeId: world.documentA,
        user: world.principals.reader,
        dueDate: '2027-01-15',
      },
      'envAdmin',
    );
    expect(created.user).toMatchObject({ principalId: world.principals.reader, email: null, phone: null });
    const path = `/api/v1/admin/actions/${created.actionId}`;
    const bySender = await api.call('GET', path, { token: token('envAdmin') });
    expect(bySender.body.user).toMatchObject({ email: null, phone: null });
    const byAssignee = await api.call('GET', path, { token: token('reader') });
    expect(byAssignee.body.user).toMatchObject(contact);
    const byAdmin = await api.call('GET', path, { token: token('systemAdmin') });
    expect(byAdmin.body.user).toMatchObject(contact);
  });

  it('builds links from the address the reader reached, never from the Host a creator sent', async () => {
    const created = await assignOne(
      {
        actionType: 'TRAINING',
        targetNodeId: world.documentA,
        user: world.principals.editor,
        dueDate: '2027-02-01',
      },
      'envAdmin',
    );
    const planted = await api.call('POST', '/api/v1/admin/actions', {
      token: token('envAdmin'),
      headers: { host: 'evil.example' },
      body: {
        actionType: 'TRAINING',
        targetNodeId: world.documentA,
        users: [world.principals.editor],
        dueDate: '2027-02-02',
      },
    });
    expect(planted.status).toBe(201);
    const { host } = new URL(ctx.stack.url);
    const seen = await api.call('GET', '/api/v1/users/me/actions', { token: token('editor') });
    for (const action of seen.body.results) {
      expect(new URL(action.actionUrl).host).toBe(host);
      expect(new URL(action.targetUrl).host).toBe(host);
    }
    expect(seen.body.results.map((a: { actionId: string }) => a.actionId)).toEqual(
      expect.arrayContaining([created.actionId, planted.body[0].actionId]),
    );
  });

  it('no longer shows an assignee the action once they cannot read its object', async () => {
    const folder = await folderInEnvB('Secret');
    const reviewer = await createUser(api, token('systemAdmin'), 'revoked-reviewer');
    await grant(api, token('systemAdmin'), folder.nodeId, reviewer, 'READER');
    const action = await assignOne({
      actionType: 'REVIEW',
      targetNodeId: folder.nodeId,
      user: reviewer,
      dueDate: '2027-04-01',
    });
    const reviewerToken = await api.login('revoked-reviewer', PASSWORD);
    const before = await api.call('GET', '/api/v1/users/me/actions', { token: reviewerToken });
    expect(before.body.results.map((a: { actionId: string }) => a.actionId)).toEqual([action.actionId]);
    const revoked = await api.call('DELETE', `/api/v1/items/${folder.nodeId}/grants/${reviewer}`, {
      token: token('systemAdmin'),
    });
    expect(revoked.status).toBe(204);
    const after = await api.call('GET', '/api/v1/users/me/actions', { token: reviewerToken });
    expect(after.body.results).toEqual([]);
    expect(
      (await api.call('GET', `/api/v1/admin/actions/${action.actionId}`, { token: reviewerToken })).status,
    ).toBe(404);
    // Nor complete it (the answer would show the object's name): it stays open.
    const done = await api.call('POST', `/api/v1/users/me/actions/${action.actionId}/done`, {
      token: reviewerToken,
    });
    expect(done.status).toBe(404);
    expect(done.body.code).toBe('ACTION_NOT_FOUND');
    const seenByAdmin = await api.call('GET', `/api/v1/admin/actions/${action.actionId}`, {
      token: token('systemAdmin'),
    });
    expect(seenByAdmin.body.status).toBe('OPEN');
  });

  it('goes with its object to the trash, comes back with it, and is gone once it is purged', async () => {
    const admin = token('systemAdmin');
    const folder = await folderInEnvB('Policies');
    const document = await createNode(
      api,
      admin,
      urlDocument(folder.nodeId, 'Policy to acknowledge', 'https://example.com/policy'),
    );
    const assignee = await createUser(api, admin, 'trash-assignee');
    await grant(api, admin, world.envB, assignee, 'READER');
    const action = await assignOne({
      actionType: 'ACKNOWLEDGEMENT',
      targetNodeId: document.nodeId,
      user: assignee,
      dueDate: '2027-05-01',
    });
    const assigneeToken = await api.login('trash-assignee', PASSWORD);
    const mine = async () =>
      (await api.call('GET', '/api/v1/users/me/actions', { token: assigneeToken })).body.results.map(
        (a: { actionId: string }) => a.actionId,
      );
    const path = `/api/v1/admin/actions/${action.actionId}`;
    expect(await mine()).toEqual([action.actionId]);

    expect(
      (await api.call('DELETE', `/api/v1/items/${document.nodeId}`, { token: admin, body: {} })).status,
    ).toBe(200);
    expect(await mine()).toEqual([]);
    for (const as of [assigneeToken, admin])
      expect((await api.call('GET', path, { token: as })).status).toBe(404);
    const done = `/api/v1/users/me/actions/${action.actionId}/done`;
    expect((await api.call('POST', done, { token: assigneeToken })).status).toBe(404);

    expect(
      (await api.call('POST', `/api/v1/items/${document.nodeId}/restore`, { token: admin })).status,
    ).toBe(200);
    expect(await mine()).toEqual([action.actionId]);
    expect((await api.call('GET', path, { token: assigneeToken })).body.status).toBe('OPEN');

    expect(
      (await api.call('DELETE', `/api/v1/items/${document.nodeId}`, { token: admin, body: {} })).status,
    ).toBe(200);
    expect((await api.call('DELETE', `/api/v1/trash/${document.nodeId}`, { token: admin })).status).toBe(204);
    expect(await mine()).toEqual([]);
    expect((await api.call('GET', path, { token: admin })).status).toBe(404);
    expect((await api.call('POST', done, { token: assigneeToken })).status).toBe(404);
  });

  it('no longer shows its sender the action once they cannot read its object', async () => {
    const admin = token('systemAdmin');
    const folder = await folderInEnvB('Sent');
    const sender = await createUser(api, admin, 'revoked-sender');
    const assignee = await createUser(api, admin, 'kept-assignee');
    await grant(api, admin, folder.nodeId, sender, 'ENVIRONMENT_ADMIN');
    await grant(api, admin, folder.nodeId, assignee, 'READER');
    const senderToken = await api.login('revoked-sender', PASSWORD);
    const sent = await api.call('POST', '/api/v1/admin/actions', {
      token: senderToken,
      body: { actionType: 'APPROVAL', targetNodeId: folder.nodeId, users: [assignee], dueDate: '2027-04-01' },
    });
    expect(sent.status, sent.text).toBe(201);
    const path = `/api/v1/admin/actions/${sent.body[0].actionId}`;
    expect((await api.call('GET', path, { token: senderToken })).status).toBe(200);
    expect(
      (await api.call('DELETE', `/api/v1/items/${folder.nodeId}/grants/${sender}`, { token: admin })).status,
    ).toBe(204);
    expect((await api.call('GET', path, { token: senderToken })).status).toBe(404);
    const assigneeToken = await api.login('kept-assignee', PASSWORD);
    expect((await api.call('GET', path, { token: assigneeToken })).status).toBe(200);
  });
  it("names its object and the object's parent as they are when it is read, after a rename and a publish", async () => {
    const admin = token('systemAdmin');
    const folder = await folderInEnvB('Handbooks');
    const document = await createNode(
      api,
      admin,
      urlDocument(folder.nodeId, 'Handbook draft', 'https://example.com/handbook'),
    );
    const assignee = await createUser(api, admin, 'renamed-object-reader');
    await grant(api, admin, world.envB, assignee, 'READER');
    const assignOn = async (on: string) =>
      (
        await assign({
          actionType: 'REVIEW',
          targetNodeId: document.nodeId,
          users: [assignee],
          dueDate: '2026-12-31',
          on,
        })
      ).body[0] as { actionId: string };
    const latestPublished = await assignOn('LATEST_PUBLISHED');
    const latestVersion = await assignOn('LATEST_VERSION');

    const edited = await rename(document.nodeId, 'Handbook 2027', { referenceNumber: 'HB-2027' });
    const published = await api.call('POST', `/api/v1/items/${document.nodeId}/publish`, {
      token: admin,
      body: { nodeVersionId: edited.nodeVersionId },
    });
    expect(published.status, published.text).toBe(200);
    const [version] = published.body;
    await rename(folder.nodeId, 'Handbooks (current)');

    const assigneeToken = await api.login('renamed-object-reader', PASSWORD);
    const named = {
      targetNode: {
        '@type': 'NameElement',
        nodeId: document.nodeId,
        name: 'Handbook 2027',
        nodeType: 'DOCUMENT',
      },
      targetNodeSequenceNumber: 'HB-2027',
      parent: {
        '@type': 'NameElement',
        nodeId: folder.nodeId,
        name: 'Handbooks (current)',
        nodeType: 'DOCUMENT_SET',
      },
    };
    const one = (id: string, as: string) => api.call('GET', `/api/v1/admin/actions/${id}`, { token: as });
    for (const as of [assigneeToken, admin]) {
      const read = await one(latestPublished.actionId, as);
      expect(read.status, read.text).toBe(200);
      expect(read.body).toMatchObject({
        ...named,
        targetNodeVersionId: version.nodeVersionId,
        targetVersion: version.version,
      });
      expect((await one(latestVersion.actionId, as)).body).toMatchObject(named);
    }
    const mine = await api.call('GET', '/api/v1/users/me/actions', { token: assigneeToken });
    expect(mine.body.results).toHaveLength(2);
    for (const action of mine.body.results) expect(action).toMatchObject(named);
    const done = await api.call('POST', `/api/v1/users/me/actions/${latestVersion.actionId}/done`, {
      token: assigneeToken,
    });
    expect(done.status, done.text).toBe(200);
    expect(done.body).toMatchObject(named);
    expect(`${mine.text}${done.text}`).not.toMatch(/Handbook draft|"Handbooks"/);
  });

  it('shows its assignee and sender as their profiles are now: contact details removed are gone at once', async () => {
    const admin = token('systemAdmin');
    const folder = await folderInEnvB('Profiles');
    const sender = await createUser(api, admin, 'profile-sender');
    const assignee = await createUser(api, admin, 'profile-assignee');
    await grant(api, admin, folder.nodeId, sender, 'ENVIRONMENT_ADMIN');
    await grant(api, admin, folder.nodeId, assignee, 'READER');
    const patch = async (principalId: string, body: Record<string, unknown>) => {
      const patched = await api.call('PATCH', `/api/v1/admin/users/${principalId}`, { token: admin, body });
      expect(patched.status, patched.text).toBe(200);
    };
    const contact = { email: 'assignee@example.com', phone: '+41 44 111 11 11' };
    await patch(assignee, { name: 'Assignee', ...contact });
    await patch(sender, { name: 'Sender', email: 'sender@example.com', phone: '+41 44 222 22 22' });
    const senderToken = await api.login('profile-sender', PASSWORD);
    const assigneeToken = await api.login('profile-assignee', PASSWORD);
    const sent = await api.call('POST', '/api/v1/admin/actions', {
      token: senderToken,
      body: { actionType: 'TRAINING', targetNodeId: folder.nodeId, users: [assignee], dueDate: '2027-06-01' },
    });
    expect(sent.status, sent.text).toBe(201);
    const path = `/api/v1/admin/actions/${sent.body[0].actionId}`;
    expect((await api.call('GET', path, { token: assigneeToken })).body.user).toMatchObject({
      name: 'Assignee',
      ...contact,
    });

    await patch(assignee, { name: 'Renamed', email: null, phone: null });
    await patch(sender, { name: 'Sender renamed' });
    const renamed = {
      user: {
        principalId: assignee,
        username: 'profile-assignee',
        name: 'Renamed',
        email: null,
        phone: null,
      },
      sentBy: { principalId: sender, username: 'profile-sender', name: 'Sender renamed' },
    };
    const mine = await api.call('GET', '/api/v1/users/me/actions', { token: assigneeToken });
    expect(mine.body.results).toMatchObject([renamed]);
    for (const as of [assigneeToken, senderToken, admin])
      expect((await api.call('GET', path, { token: as })).body).toMatchObject(renamed);
    const everything = `${mine.text}${(await api.call('GET', path, { token: admin })).text}`;
    expect(everything).not.toContain('assignee@example.com');
    expect(everything).not.toContain('+41 44 111 11 11');

    // Contact details added later show as the rule says: to the user and to system administrators only.
    await patch(assignee, { email: 'new-assignee@example.com' });
    expect((await api.call('GET', path, { token: assigneeToken })).body.user.email).toBe(
      'new-assignee@example.com',
    );
    expect((await api.call('GET', path, { token: admin })).body.user.email).toBe('new-assignee@example.com');
    const bySender = (await api.call('GET', path, { token: senderToken })).body;
    expect(bySender.user).toMatchObject({ email: null, phone: null });
    expect(bySender.sentBy).toMatchObject({ email: 'sender@example.com', phone: '+41 44 222 22 22' });
    expect((await api.call('GET', path, { token: assigneeToken })).body.sentBy).toMatchObject({
      email: null,
      phone: null,
    });
    const done = await api.call('POST', `${path.replace('/admin/actions/', '/users/me/actions/')}/done`, {
      token: assigneeToken,
    });
    expect(done.status, done.text).toBe(200);
    expect(done.body.user).toMatchObject({ name: 'Renamed', email: 'new-assignee@example.com', phone: null });
    expect(done.body.sentBy).toMatchObject({ name: 'Sender renamed', email: null, phone: null });
  });
  it('shows a user no longer there as it keeps them, without contact details (which it does not keep)', async () => {
    const admin = token('systemAdmin');
    const folder = await folderInEnvB('Left behind');
    const sender = await createUser(api, admin, 'gone-sender');
    const assignee = await createUser(api, admin, 'stays-assignee');
    await grant(api, admin, folder.nodeId, sender, 'ENVIRONMENT_ADMIN');
    await grant(api, admin, folder.nodeId, assignee, 'READER');
    const profile = await api.call('PATCH', `/api/v1/admin/users/${sender}`, {
      token: admin,
      body: { name: 'Gone sender', email: 'gone@example.com', phone: '+41 44 333 33 33' },
    });
    expect(profile.status, profile.text).toBe(200);
    const sent = await api.call('POST', '/api/v1/admin/actions', {
      token: await api.login('gone-sender', PASSWORD),
      body: { actionType: 'APPROVAL', targetNodeId: folder.nodeId, users: [assignee], dueDate: '2027-07-01' },
    });
    expect(sent.status, sent.text).toBe(201);
    const { actionId } = sent.body[0];
    const { client: table, TableName } = tableClient(ctx.stack);
    // What the action keeps of its users: who they were, never how to reach them.
    const kept = (await table.send(new GetCommand({ TableName, Key: actionKey(actionId) }))).Item;
    expect(kept?.sentBy).toMatchObject({
      principalId: sender,
      name: 'Gone sender',
      email: null,
      phone: null,
    });
    // No endpoint removes a user; an operator might remove the item.
    await table.send(new DeleteCommand({ TableName, Key: userKey(sender) }));
    const gone = {
      principalId: sender,
      username: 'gone-sender',
      name: 'Gone sender',
      email: null,
      phone: null,
    };
    const assigneeToken = await api.login('stays-assignee', PASSWORD);
    for (const as of [assigneeToken, admin]) {
      const read = await api.call('GET', `/api/v1/admin/actions/${actionId}`, { token: as });
      expect(read.status, read.text).toBe(200);
      expect(read.body.sentBy).toMatchObject(gone);
    }
    const mine = await api.call('GET', '/api/v1/users/me/actions', { token: assigneeToken });
    expect(mine.status, mine.text).toBe(200);
    expect(mine.body.results).toMatchObject([{ actionId, sentBy: gone, user: { principalId: assignee } }]);
  });
});
