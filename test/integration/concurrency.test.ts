import { afterAll, beforeAll, expect, it } from 'vitest';
import { createNode, defaultEnvironmentId, folder, urlDocument } from './helpers/library.ts';
import { startTestStack, type TestStack } from './helpers/test-stack.ts';

let ctx: TestStack;
beforeAll(async () => {
  ctx = await startTestStack();
});
afterAll(() => ctx.close());

it('20 concurrent PUTs quoting the same nodeVersionId: exactly one 200, nineteen 409, no lost update', async () => {
  const { api } = ctx;
  const token = await api.login();
  const environmentId = await defaultEnvironmentId(api, token);
  const node = await createNode(api, token, folder(environmentId, 'Contended'));

  const responses = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      api.call('PUT', `/api/v1/items/${node.nodeId}`, {
        token,
        body: {
          ...folder(environmentId, `Writer ${i}`),
          nodeId: node.nodeId,
          nodeVersionId: node.nodeVersionId,
        },
      }),
    ),
  );
  const winners = responses.filter((r) => r.status === 200);
  const losers = responses.filter((r) => r.status === 409);
  expect(winners).toHaveLength(1);
  expect(losers).toHaveLength(19);
  const winner = winners[0]?.body;
  for (const loser of losers) expect(loser.body.currentNodeVersionId).toBe(winner.nodeVersionId);

  const stored = await api.call('GET', `/api/v1/items/${node.nodeId}`, { token });
  expect(stored.body).toEqual(winner);
  expect(stored.body.version).toBe('0.0002');
});

it('creates racing a multi-transaction subtree delete either fail with 404 or are deleted with it and answered', async () => {
  const { api } = ctx;
  const token = await api.login();
  const environmentId = await defaultEnvironmentId(api, token);
  const top = await createNode(api, token, folder(environmentId, 'Doomed'));
  const sub = await createNode(api, token, folder(top.nodeId, 'Doomed too'));
  // Enough documents that the delete takes several transactions (100 items each).
  for (let i = 0; i < 120; i++)
    await createNode(api, token, urlDocument(i % 2 ? top.nodeId : sub.nodeId, `Doc ${i}`));

  const deletion = api.call('DELETE', `/api/v1/items/${top.nodeId}`, { token, body: {} });
  // Creates under both folders through the delete (a steady stream, as an import would send them).
  const create = (i: number) =>
    api.call('POST', '/api/v1/items', {
      token,
      body: urlDocument(i % 2 ? top.nodeId : sub.nodeId, `Late ${i}`),
    });
  const creates: Promise<{ status: number; body: any }>[] = [];
  for (let i = 0; i < 40; i++) {
    creates.push(create(i));
    await new Promise((resolve) => setTimeout(resolve, 15));
  }
  await deletion;
  // And right after it: these can only fail.
  for (let i = 40; i < 43; i++) creates.push(create(i));
  const deleted = await deletion;
  const answers = await Promise.all(creates);
  expect(deleted.status).toBe(200);
  const deletedIds = new Set(deleted.body.map((n: { nodeId: string }) => n.nodeId));
  expect(deleted.body.length).toBe(deletedIds.size);
  expect(deleted.body[0].nodeId).toBe(top.nodeId);
  for (const answer of answers) {
    if (answer.status === 404) {
      expect(answer.body.code).toBe('PARENT_NOT_FOUND');
      continue;
    }
    expect(answer.status).toBe(200);
    expect(deletedIds.has(answer.body.nodeId)).toBe(true);
  }
  // Nothing of the subtree is left anywhere: not readable, not listed.
  const documents = await api.call('GET', '/api/v1/document/list?pageSize=1000', { token });
  const orphans = documents.body.results.filter(
    (n: { parent: { nodeId: string } | null }) =>
      n.parent?.nodeId === top.nodeId || n.parent?.nodeId === sub.nodeId,
  );
  expect(orphans).toEqual([]);
  for (const answer of answers.filter((a) => a.status === 200)) {
    expect((await api.call('GET', `/api/v1/items/${answer.body.nodeId}`, { token })).status).toBe(404);
  }
  // The test raced for real: some creates landed before the delete and some after.
  expect(answers.some((a) => a.status === 200)).toBe(true);
  expect(answers.some((a) => a.status === 404)).toBe(true);
});
