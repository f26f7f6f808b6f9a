import { afterAll, beforeAll, expect, it } from 'vitest';
import { createNode, defaultEnvironmentId, folder } from './helpers/library.ts';
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
