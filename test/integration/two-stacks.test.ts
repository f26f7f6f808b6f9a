/** Two embedded stacks in one process, each with its own data and settings, neither touching process.env. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createNode, defaultEnvironmentId, folder } from './helpers/library.ts';
import { startTestStack, type TestStack } from './helpers/test-stack.ts';

let first: TestStack;
let second: TestStack;
const environment = { ...process.env };

beforeAll(async () => {
  [first, second] = await Promise.all([
    startTestStack({ corsOrigins: ['https://first.example'] }),
    startTestStack({ corsOrigins: ['https://second.example'], sessionTimeoutMinutes: 5 }),
  ]);
});
afterAll(() => Promise.all([first.close(), second.close()]));

it('serve side by side from their own tables with their own settings', async () => {
  expect(process.env).toEqual(environment);
  const [firstToken, secondToken] = await Promise.all([first.api.login(), second.api.login()]);
  const made = await createNode(
    first.api,
    firstToken,
    folder(await defaultEnvironmentId(first.api, firstToken), 'Only in the first'),
  );
  expect((await first.api.call('GET', `/api/v1/items/${made.nodeId}`, { token: firstToken })).status).toBe(
    200,
  );
  expect((await second.api.call('GET', `/api/v1/items/${made.nodeId}`, { token: secondToken })).status).toBe(
    404,
  );
  // A token of one installation is not a token of the other (each signs with its own key).
  expect((await second.api.call('GET', '/api/v1/list', { token: firstToken })).status).toBe(401);
  const settings = await second.api.call('GET', '/api/v1/admin/settings', { token: secondToken });
  expect(settings.body.SESSION_TIMEOUT).toBe(5);
  const cors = await first.api.call('GET', '/api/v1/list', {
    token: firstToken,
    headers: { origin: 'https://first.example' },
  });
  expect(cors.headers.get('access-control-allow-origin')).toBe('https://first.example');
  const notHere = await second.api.call('GET', '/api/v1/list', {
    token: secondToken,
    headers: { origin: 'https://first.example' },
  });
  expect(notHere.headers.get('access-control-allow-origin')).toBeNull();
});
