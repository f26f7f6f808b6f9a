/**
 * Model-based check of the change feed (fast-check): five writers run random creates, updates, deletes,
 * restores, publishes and grant changes at once, meeting in the conflict model (stale versions are
 * refused, deletes and creates in one folder race). Then a client that follows the feed from the start
 * rebuilds the objects, their versions and statuses, and must find exactly what the lists show: for the
 * administrator, and for a reader granted one of the two folders (granted and revoked along the way).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { feedSettled } from './helpers/feed.ts';
import { createNode, defaultEnvironmentId, folder, urlDocument } from './helpers/library.ts';
import { createUser, PASSWORD } from './helpers/personas.ts';
import { type ApiClient, startTestStack, type TestStack } from './helpers/test-stack.ts';

const SETTLE_MS = 100;

let ctx: TestStack;
let api: ApiClient;
let admin: string;
let env: string;

beforeAll(async () => {
  ctx = await startTestStack({ changesSettleMs: SETTLE_MS });
  api = ctx.api;
  admin = await api.login();
  env = await defaultEnvironmentId(api, admin);
});
afterAll(() => ctx.close());

type Op =
  | { op: 'create'; folder: number }
  | { op: 'update'; pick: number }
  | { op: 'delete'; pick: number }
  | { op: 'restore'; pick: number }
  | { op: 'publish'; pick: number }
  | { op: 'grant' }
  | { op: 'revoke' };

const opArbitrary: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({ op: fc.constant('create' as const), folder: fc.integer({ min: 0, max: 1 }) }),
  },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('update' as const), pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('delete' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('restore' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('publish' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.constant({ op: 'grant' as const }) },
  { weight: 1, arbitrary: fc.constant({ op: 'revoke' as const }) },
);

/** One write of each kind, in an order in which each can succeed. */
const EVERY_KIND: Op[] = [
  { op: 'create', folder: 0 },
  { op: 'update', pick: 0 },
  { op: 'publish', pick: 0 },
  { op: 'delete', pick: 0 },
  { op: 'restore', pick: 0 },
  { op: 'grant' },
  { op: 'revoke' },
];

interface Copy {
  version: string;
  nodeStatus: string;
}

/** What a sync client keeps: the live objects under `roots`, by id, rebuilt from the feed alone. */
async function rebuild(token: string, since: string, roots: Set<string>) {
  const copy = new Map<string, Copy>();
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (;;) {
    const query = cursor ? `cursor=${cursor}` : `since=${since}`;
    const page = await api.call('GET', `/api/v1/changes?${query}&pageSize=50`, { token });
    expect(page.status, page.text).toBe(200);
    for (const change of page.body.changes) {
      if (seen.has(change.changeId)) continue;
      seen.add(change.changeId);
      if (!roots.has(change.parentId) || change.principalId !== null) continue;
      if (['DELETED', 'PURGED', 'REMOVED'].includes(change.kind)) copy.delete(change.nodeId);
      else if (['CREATED', 'UPDATED', 'PUBLISHED', 'RESTORED'].includes(change.kind))
        copy.set(change.nodeId, { version: change.version, nodeStatus: change.nodeStatus });
    }
    cursor = page.body.cursor;
    if (!page.body.hasMore) return copy;
  }
}

/** The live objects under `roots` as the lists show them to `token`. */
async function listed(token: string, roots: string[]) {
  const copy = new Map<string, Copy>();
  for (const root of roots) {
    const page = await api.call('GET', `/api/v1/list/${root}?pageSize=1000`, { token });
    if (page.status === 404) continue;
    expect(page.status, page.text).toBe(200);
    for (const element of page.body.results)
      copy.set(element.nodeId, { version: element.version, nodeStatus: element.nodeStatus });
  }
  return copy;
}

describe('the change feed against the lists', () => {
  it('rebuilds what the lists show after five writers ran at once, for an admin and for a reader', async () => {
    let round = 0;
    /** Writes that succeeded, by kind, over all runs: the check below must have had something to check. */
    const done = new Map<string, number>();
    const count = (kind: string, status: number) => {
      if (status < 300) done.set(kind, (done.get(kind) ?? 0) + 1);
    };
    await fc.assert(
      fc.asyncProperty(
        fc
          .array(fc.array(opArbitrary, { minLength: 6, maxLength: 12 }), { minLength: 5, maxLength: 5 })
          // The first writer begins with one of each kind, so every run has each kind to check (random
          // steps alone left a kind out of all three runs now and then).
          .map(([first, ...others]) => [[...EVERY_KIND, ...(first ?? [])], ...others]),
        async (writers) => {
          round += 1;
          const folders = [
            (await createNode(api, admin, folder(env, `Model ${round} A`))).nodeId as string,
            (await createNode(api, admin, folder(env, `Model ${round} B`))).nodeId as string,
          ];
          const readerId = await createUser(api, admin, `model-reader-${round}`);
          const reader = await api.login(`model-reader-${round}`, PASSWORD);
          await api.call('PUT', `/api/v1/items/${folders[0]}/grants/${readerId}`, {
            token: admin,
            body: { role: 'READER' },
          });
          await feedSettled(ctx.stack, SETTLE_MS);
          const since = (await api.call('GET', '/api/v1/changes?pageSize=1', { token: admin })).body
            .settledUntil;

          const objects: string[] = [];
          /** Objects a delete took (restores pick among them). */
          const deleted: string[] = [];
          const at = (pick: number) => objects[pick % Math.max(objects.length, 1)];
          const current = async (id: string) =>
            (await api.call('GET', `/api/v1/items/${id}`, { token: admin })).body;
          await Promise.all(
            writers.map(async (ops) => {
              for (const step of ops) {
                const id = 'pick' in step ? at(step.pick) : undefined;
                if (step.op === 'create') {
                  const made = await api.call('POST', '/api/v1/items', {
                    token: admin,
                    body: urlDocument(folders[step.folder] as string, `doc ${objects.length}`),
                  });
                  if (made.status === 200) objects.push(made.body.nodeId);
                  count('create', made.status);
                } else if (step.op === 'grant' || step.op === 'revoke') {
                  const changed = await api.call(
                    step.op === 'grant' ? 'PUT' : 'DELETE',
                    `/api/v1/items/${folders[1]}/grants/${readerId}`,
                    {
                      token: admin,
                      ...(step.op === 'grant' ? { body: { role: 'READER' } } : {}),
                    },
                  );
                  count(step.op, changed.status);
                } else if (id && step.op === 'update') {
                  const node = await current(id);
                  if (node.deleted !== false) continue;
                  // Racing writers: a stale version is refused (409), as it should be.
                  const updated = await api.call('PUT', `/api/v1/items/${id}`, {
                    token: admin,
                    body: {
                      ...urlDocument(node.parentId ?? folders[0], `edited ${node.version}`),
                      nodeId: id,
                      nodeVersionId: node.nodeVersionId,
                    },
                  });
                  count('update', updated.status);
                } else if (id && step.op === 'delete') {
                  const answer = await api.call('DELETE', `/api/v1/items/${id}`, { token: admin });
                  if (answer.status === 200) deleted.push(id);
                  count('delete', answer.status);
                } else if (step.op === 'restore' && deleted.length > 0) {
                  const [taken] = deleted.splice(step.pick % deleted.length, 1);
                  const answer = await api.call('POST', `/api/v1/items/${taken}/restore`, { token: admin });
                  count('restore', answer.status);
                } else if (id && step.op === 'publish') {
                  const node = await current(id);
                  const published = await api.call('POST', `/api/v1/items/${id}/publish`, {
                    token: admin,
                    body: { nodeVersionId: node.nodeVersionId },
                  });
                  count('publish', published.status);
                }
              }
            }),
          );
          await feedSettled(ctx.stack, SETTLE_MS);

          const roots = new Set(folders);
          expect(await rebuild(admin, since, roots)).toEqual(await listed(admin, folders));
          expect(await rebuild(reader, since, roots)).toEqual(await listed(reader, folders));
        },
      ),
      { numRuns: 3 },
    );
    for (const kind of ['create', 'update', 'delete', 'restore', 'publish', 'grant', 'revoke'])
      expect(done.get(kind), kind).toBeGreaterThan(0);
  });
});
