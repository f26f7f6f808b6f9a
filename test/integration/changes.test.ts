/**
 * The change feed as a sync client follows it: every kind of write in commit order per object, a
 * cursor that resumes exactly, deletions as tombstones for the whole subtree, what a reader with partial
 * rights sees (and its grant's changes), no change skipped while many writers commit during the reads,
 * and the 4xx/410 answers of a bad or expired cursor.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SLOW_CALL_MS } from '#infra/local/local-dynamodb.ts';
import { feedSettled } from './helpers/feed.ts';
import {
  chain,
  createNode,
  createOfType,
  defaultEnvironmentId,
  folder,
  processFolder,
  processIn,
  urlDocument,
} from './helpers/library.ts';
import { createUser, grant, PASSWORD } from './helpers/personas.ts';
import { type ApiClient, startTestStack, type TestStack } from './helpers/test-stack.ts';

/** Short, so the tests wait little; the recorder's deadline is a third of it (50 ms). */
const SETTLE_MS = 150;

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

interface Change {
  changeId: string;
  kind: string;
  nodeId: string;
  nodeVersionId: string | null;
  version: string | null;
  by: string | null;
  at: string | null;
  detail: string | null;
  principalId: string | null;
  recordedAt: string;
}

/** Waits until what was written so far is recorded and settled. */
const settled = () => feedSettled(ctx.stack, SETTLE_MS);

/**
 * Every page from `cursor` (or the start) until the feed has no more: the changes and the cursor. Like a
 * sync client, it skips a changeId it has seen (delivery is at least once: an attempt that missed the
 * recorder's deadline is recorded again).
 */
async function follow(token: string, cursor?: string, pageSize = 7) {
  const changes: Change[] = [];
  const seen = new Set<string>();
  for (;;) {
    const query = new URLSearchParams({ pageSize: String(pageSize), ...(cursor ? { cursor } : {}) });
    const page = await api.call('GET', `/api/v1/changes?${query}`, { token });
    expect(page.status, page.text).toBe(200);
    for (const change of page.body.changes as Change[]) {
      if (seen.has(change.changeId)) continue;
      seen.add(change.changeId);
      changes.push(change);
    }
    cursor = page.body.cursor as string;
    if (!page.body.hasMore) return { changes, cursor };
  }
}

const kindsOf = (changes: Change[], nodeId: string) =>
  changes.filter((c) => c.nodeId === nodeId).map((c) => c.kind);

describe('the change feed', () => {
  let cursor: string;

  it('has every write of an object in commit order, with its version and author', async () => {
    await settled();
    ({ cursor } = await follow(admin));
    const parent = await createNode(api, admin, folder(env, 'Feed folder'));
    const doc = await createNode(api, admin, urlDocument(parent.nodeId, 'Feed document'));
    const updated = await api.call('PUT', `/api/v1/items/${doc.nodeId}`, {
      token: admin,
      body: {
        ...urlDocument(parent.nodeId, 'Renamed'),
        nodeId: doc.nodeId,
        nodeVersionId: doc.nodeVersionId,
      },
    });
    expect(updated.status).toBe(200);
    const published = await api.call('POST', `/api/v1/items/${doc.nodeId}/publish`, {
      token: admin,
      body: { nodeVersionId: updated.body.nodeVersionId },
    });
    expect(published.status, published.text).toBe(200);
    await settled();
    const { changes, cursor: next } = await follow(admin, cursor);
    expect(kindsOf(changes, parent.nodeId)).toEqual(['CREATED']);
    expect(kindsOf(changes, doc.nodeId)).toEqual(['CREATED', 'UPDATED', 'PUBLISHED']);
    const [created, update, publish] = changes.filter((c) => c.nodeId === doc.nodeId) as Change[];
    expect(created).toMatchObject({ nodeVersionId: doc.nodeVersionId, version: '0.0001' });
    expect(update).toMatchObject({ nodeVersionId: updated.body.nodeVersionId, version: '0.0002' });
    expect(publish).toMatchObject({ version: '1.0000' });
    expect(created?.by).toEqual(expect.any(String));
    expect(update?.by).toBe(created?.by);
    expect(new Set(changes.map((c) => c.changeId)).size).toBe(changes.length);
    cursor = next;

    // Deleting the folder: a tombstone for each object of the subtree; restoring and purging too.
    const deleted = await api.call('DELETE', `/api/v1/items/${parent.nodeId}`, { token: admin });
    expect(deleted.status, deleted.text).toBe(200);
    await settled();
    const afterDelete = await follow(admin, cursor);
    expect(kindsOf(afterDelete.changes, parent.nodeId)).toEqual(['DELETED']);
    expect(kindsOf(afterDelete.changes, doc.nodeId)).toEqual(['DELETED']);
    const restored = await api.call('POST', `/api/v1/items/${parent.nodeId}/restore`, { token: admin });
    expect(restored.status, restored.text).toBe(200);
    await api.call('DELETE', `/api/v1/items/${parent.nodeId}`, { token: admin });
    const purged = await api.call('DELETE', `/api/v1/trash/${parent.nodeId}`, { token: admin });
    expect(purged.status, purged.text).toBe(204);
    await settled();
    const afterPurge = await follow(admin, afterDelete.cursor);
    expect(kindsOf(afterPurge.changes, doc.nodeId)).toEqual(['RESTORED', 'DELETED', 'PURGED']);
    expect(kindsOf(afterPurge.changes, parent.nodeId)).toEqual(['RESTORED', 'DELETED', 'PURGED']);
    // Nothing new: an empty page, whose cursor has moved up to the settled horizon.
    const idle = await api.call('GET', `/api/v1/changes?cursor=${afterPurge.cursor}`, { token: admin });
    expect(idle.body).toMatchObject({ changes: [], hasMore: false });
    expect(idle.body.settledUntil > String(afterDelete.changes.at(-1)?.recordedAt)).toBe(true);
  });

  it('has every task and edge of a diagram change too large for one transaction, and their later writes', async () => {
    const process = await createOfType(api, admin, env, 'PROCESS', 'Batched in the feed');
    await settled();
    const start = (await follow(admin)).cursor;
    // 60 tasks in a chain: more writes than one transaction holds, so they are staged as a batch.
    const count = 60;
    const tasks = chain(count, 'b');
    const added = await api.call('POST', `/api/v1/process/nodes?process=${process.nodeId}&draft=true`, {
      token: admin,
      body: tasks,
    });
    expect(added.status, added.text).toBe(200);
    const [first, second] = added.body as { nodeId: string; nodeVersionId: string; version: string }[];
    await settled();
    const { changes, cursor } = await follow(admin, start, 100);
    const created = changes.filter((c) => c.kind === 'CREATED');
    expect(new Set(created.map((c) => c.nodeId))).toEqual(
      new Set((added.body as { nodeId: string }[]).map((task) => task.nodeId)),
    );
    expect(created.find((c) => c.nodeId === first?.nodeId)).toMatchObject({
      nodeVersionId: first?.nodeVersionId,
      version: first?.version,
    });
    expect(changes.filter((c) => c.kind === 'EDGE_ADDED' && c.nodeId === process.nodeId)).toHaveLength(
      count - 1,
    );
    // Each says who added it, as the batch's tasks do.
    expect(new Set(changes.filter((c) => c.kind === 'EDGE_ADDED').map((c) => c.by))).toEqual(
      new Set([created[0]?.by]),
    );
    expect(kindsOf(changes, process.nodeId)).toContain('UPDATED');

    // The batch's tasks are objects like any other from then on: their updates and deletes are news.
    const read = await api.call('GET', `/api/v1/items/${first?.nodeId}`, { token: admin });
    const renamed = await api.call('PUT', `/api/v1/items/${first?.nodeId}`, {
      token: admin,
      body: { ...read.body, name: 'Renamed batched task' },
    });
    expect(renamed.status, renamed.text).toBe(200);
    const removed = await api.call('DELETE', `/api/v1/items/${second?.nodeId}`, { token: admin });
    expect(removed.status, removed.text).toBe(200);
    await settled();
    const later = (await follow(admin, cursor)).changes;
    expect(kindsOf(later, first?.nodeId as string)).toEqual(['UPDATED']);
    expect(kindsOf(later, second?.nodeId as string)).toEqual(['DELETED']);

    // Purging the process purges its tasks for good, the batch's among them, its record included.
    expect((await api.call('DELETE', `/api/v1/items/${process.nodeId}`, { token: admin })).status).toBe(200);
    expect((await api.call('DELETE', `/api/v1/trash/${process.nodeId}`, { token: admin })).status).toBe(204);
    await settled();
    const purged = (await follow(admin, cursor, 200)).changes.filter((c) => c.kind === 'PURGED');
    // The task deleted on its own before, which could never come back without its process, goes too.
    const expected = [process.nodeId, ...(added.body as { nodeId: string }[]).map((task) => task.nodeId)];
    expect(new Set(purged.map((c) => c.nodeId))).toEqual(new Set(expected));
  });

  it('says who added an edge and when, by each route that adds one; a removal says no one', async () => {
    const process = await createOfType(api, admin, env, 'PROCESS', 'Edges with authors');
    const editorId = await createUser(api, admin, 'edge-author');
    await grant(api, admin, env, editorId, 'EDITOR');
    const editor = await api.login('edge-author', PASSWORD);
    await settled();
    const start = (await follow(admin)).cursor;
    const added = await api.call('POST', `/api/v1/process/nodes?process=${process.nodeId}&draft=true`, {
      token: editor,
      body: chain(3, 'e'),
    });
    expect(added.status, added.text).toBe(200);
    const [first, second, third] = (added.body as { nodeId: string }[]).map((task) => task.nodeId);
    const point = { x: 0, y: 0 };
    const linked = await api.call('POST', `/api/v1/process/processes/${process.nodeId}/edges`, {
      token: admin,
      body: [{ sourceNodeId: first, sourcePortPoint: point, targetNodeId: third, targetPortPoint: point }],
    });
    expect(linked.status, linked.text).toBe(200);
    const direct = (linked.body as { edgeId: string }[])[0]?.edgeId;
    await settled();
    const { changes, cursor } = await follow(admin, start);
    const adds = changes.filter((c) => c.kind === 'EDGE_ADDED');
    const adminId = changes.find(
      (c) => c.nodeId === process.nodeId && c.kind === 'UPDATED' && c.by !== editorId,
    )?.by;
    expect(adminId).toEqual(expect.any(String));
    expect(adds.map((c) => [c.detail === direct ? 'direct' : 'with tasks', c.by])).toEqual([
      ['with tasks', editorId],
      ['with tasks', editorId],
      ['direct', adminId],
    ]);
    expect(adds.every((c) => typeof c.at === 'string' && c.at <= c.recordedAt)).toBe(true);

    // Deleting the middle task takes its two edges away (no one named), restoring it brings them back.
    expect((await api.call('DELETE', `/api/v1/items/${second}`, { token: admin })).status).toBe(200);
    expect((await api.call('POST', `/api/v1/items/${second}/restore`, { token: admin })).status).toBe(200);
    await settled();
    const later = (await follow(admin, cursor)).changes.filter((c) => c.kind.startsWith('EDGE_'));
    expect(later.map((c) => [c.kind, c.by])).toEqual([
      ['EDGE_REMOVED', null],
      ['EDGE_REMOVED', null],
      ['EDGE_ADDED', adminId],
      ['EDGE_ADDED', adminId],
    ]);
  });

  it('has a link, each change of its responsibility kinds, and the unlink, with who made them and which kind', async () => {
    const beforeCreate = (await follow(admin)).cursor;
    const process = await createOfType(api, admin, env, 'PROCESS', 'Owned process');
    const role = await createOfType(api, admin, env, 'ROLE', 'Process owner');
    await settled();
    const start = (await follow(admin)).cursor;
    const relation = (kind: string) => `/api/v1/items/${process.nodeId}/relations/${kind}/${role.nodeId}`;
    for (const [method, kind] of [
      ['PUT', 'responsible'],
      ['PUT', 'accountable'],
      ['DELETE', 'responsible'],
      ['DELETE', 'accountable'],
    ] as const) {
      const answer = await api.call(method, relation(kind), { token: admin });
      expect(answer.status, answer.text).toBeLessThan(300);
    }
    await settled();
    const { changes } = await follow(admin, start);
    expect(kindsOf(changes, process.nodeId)).toEqual([
      'RELATION_LINKED',
      'RELATION_CHANGED',
      'RELATION_CHANGED',
      'RELATION_UNLINKED',
    ]);
    // Who linked and changed the kinds is the admin, as for the process's creation; an unlink leaves
    // no item to say who (as a revoke).
    const created = (await follow(admin, beforeCreate)).changes.find(
      (c) => c.kind === 'CREATED' && c.nodeId === process.nodeId,
    );
    expect(created?.by).toEqual(expect.any(String));
    const ofProcess = changes.filter((c) => c.nodeId === process.nodeId);
    expect(ofProcess.map((c) => c.by)).toEqual([created?.by, created?.by, created?.by, null]);
    // Each names the relation as the API does: the responsibility kind linked or unlinked.
    expect(ofProcess.map((c) => c.detail)).toEqual(
      ['responsible', 'accountable', 'responsible', 'accountable'].map((kind) => `${kind}:${role.nodeId}`),
    );
    // Each says when its own write was made, not when the link was first made.
    const [linkedAt, addedAt, removedAt] = ofProcess.map((c) => String(c.at));
    expect(String(linkedAt) < String(addedAt) && String(addedAt) < String(removedAt)).toBe(true);
  });

  it('shows a reader only what it may read, and its own grants', async () => {
    const visible = await createNode(api, admin, folder(env, 'Readable'));
    const hidden = await createNode(api, admin, folder(env, 'Hidden'));
    const readerId = await createUser(api, admin, 'feed-reader');
    await settled();
    const reader = await api.login('feed-reader', PASSWORD);
    const start = (await follow(reader)).cursor;
    await grant(api, admin, visible.nodeId, readerId, 'READER');
    // The same role again changes nothing; another role is a change.
    await grant(api, admin, visible.nodeId, readerId, 'READER');
    await grant(api, admin, visible.nodeId, readerId, 'EDITOR');
    const inside = await createNode(api, admin, urlDocument(visible.nodeId, 'Inside'));
    const outside = await createNode(api, admin, urlDocument(hidden.nodeId, 'Outside'));
    const revoked = await api.call('DELETE', `/api/v1/items/${visible.nodeId}/grants/${readerId}`, {
      token: admin,
    });
    expect(revoked.status, revoked.text).toBe(204);
    await settled();
    const seen = (await follow(reader, start)).changes;
    // After the revoke the reader may read nothing: only its own grant's changes remain.
    expect(seen.map((c) => c.kind)).toEqual(['GRANTED', 'GRANT_CHANGED', 'REVOKED']);
    expect(seen.map((c) => (c as Change & { role: string | null }).role)).toEqual([
      'READER',
      'EDITOR',
      'EDITOR',
    ]);
    expect(seen.every((c) => c.principalId === readerId && c.nodeId === visible.nodeId)).toBe(true);
    // The admin sees all of it.
    const all = (await follow(admin, start)).changes;
    expect(all.map((c) => c.nodeId)).toEqual(
      expect.arrayContaining([visible.nodeId, inside.nodeId, outside.nodeId]),
    );
    // With the grant back, the reader sees the objects under it, and still not the others.
    await grant(api, admin, visible.nodeId, readerId, 'READER');
    const renamed = await api.call('PUT', `/api/v1/items/${visible.nodeId}`, {
      token: admin,
      body: {
        ...folder(env, 'Readable again'),
        nodeId: visible.nodeId,
        nodeVersionId: visible.nodeVersionId,
      },
    });
    expect(renamed.status, renamed.text).toBe(200);
    await settled();
    const againChanges = (await follow(reader, start)).changes;
    const again = againChanges.map((c) => c.nodeId);
    expect(again).toContain(inside.nodeId);
    expect(again).not.toContain(outside.nodeId);
    expect(again).not.toContain(hidden.nodeId);
    // The parent of what the reader reads is named when it may read it, else null (the environment).
    const parentOf = (nodeId: string) =>
      againChanges.find((c) => c.nodeId === nodeId && c.kind !== 'GRANTED') as Change & {
        parentId: string | null;
      };
    expect(parentOf(inside.nodeId).parentId).toBe(visible.nodeId);
    expect(parentOf(visible.nodeId).parentId).toBeNull();
    expect(JSON.stringify(againChanges)).not.toContain(env);
    const adminView = (await follow(admin, start)).changes.find(
      (c) => c.nodeId === visible.nodeId && c.kind === 'UPDATED',
    ) as Change & { parentId: string | null };
    expect(adminView.parentId).toBe(env);

    // Another user's role where the reader reads is not the reader's to see (GET …/grants is a 403 to it);
    // an administrator of the folder sees it.
    const peerId = await createUser(api, admin, 'feed-peer');
    const before = (await follow(reader)).cursor;
    await grant(api, admin, visible.nodeId, peerId, 'EDITOR');
    await settled();
    expect((await api.call('GET', `/api/v1/items/${visible.nodeId}/grants`, { token: reader })).status).toBe(
      403,
    );
    const peers = (token: string) =>
      follow(token, before).then(({ changes }) => changes.filter((c) => c.principalId === peerId));
    expect(await peers(reader)).toEqual([]);
    expect((await peers(admin)).map((c) => c.kind)).toEqual(['GRANTED']);
  });

  it('shows an environment admin the grants a purge took away, as it showed their granting', async () => {
    const envAdminId = await createUser(api, admin, 'feed-env-admin');
    await grant(api, admin, env, envAdminId, 'ENVIRONMENT_ADMIN');
    const envAdmin = await api.login('feed-env-admin', PASSWORD);
    const holderId = await createUser(api, admin, 'feed-purged-holder');
    const purged = await createNode(api, admin, folder(env, 'Granted, then purged'));
    await settled();
    const start = (await follow(envAdmin)).cursor;
    await grant(api, admin, purged.nodeId, holderId, 'READER');
    expect((await api.call('DELETE', `/api/v1/items/${purged.nodeId}`, { token: admin })).status).toBe(200);
    expect((await api.call('DELETE', `/api/v1/trash/${purged.nodeId}`, { token: admin })).status).toBe(204);
    await settled();
    const grants = (await follow(envAdmin, start)).changes.filter((c) => c.principalId === holderId);
    expect(grants.map((c) => [c.kind, c.nodeId])).toEqual([
      ['GRANTED', purged.nodeId],
      ['REVOKED', purged.nodeId],
    ]);
  });

  it('gives a reader cursors that name none of the objects it may not read, and skips none it may', async () => {
    const mine = await createNode(api, admin, folder(env, 'Cursor: readable'));
    const theirs = await createNode(api, admin, processFolder(env, 'Cursor: hidden'));
    const process = await createNode(api, admin, processIn(theirs.nodeId, 'Cursor: hidden process'));
    const readerId = await createUser(api, admin, 'feed-cursor-reader');
    await grant(api, admin, mine.nodeId, readerId, 'READER');
    await settled();
    const reader = await api.login('feed-cursor-reader', PASSWORD);
    let cursor = (await follow(reader)).cursor;
    // A diagram change too large for one transaction: its changes' ids name each task and edge.
    const added = await api.call('POST', `/api/v1/process/nodes?process=${process.nodeId}&draft=true`, {
      token: admin,
      body: chain(60, 'h'),
    });
    expect(added.status, added.text).toBe(200);
    const hidden = (added.body as { nodeId: string }[]).map((task) => task.nodeId);
    const shown = await createNode(api, admin, urlDocument(mine.nodeId, 'Shown'));
    await settled();
    const seen: string[] = [];
    for (;;) {
      const page = await api.call('GET', `/api/v1/changes?pageSize=1&cursor=${cursor}`, { token: reader });
      expect(page.status, page.text).toBe(200);
      seen.push(...page.body.changes.map((c: Change) => c.nodeId));
      cursor = page.body.cursor as string;
      const decoded = Buffer.from(cursor, 'base64url').toString('utf8');
      for (const id of hidden) expect(decoded).not.toContain(id);
      if (!page.body.hasMore) break;
    }
    expect(seen).toEqual([shown.nodeId]);
  });

  it('shows a reader a link only when it may read both ends, as the relations list does', async () => {
    const processes = await createNode(api, admin, processFolder(env, 'Shared processes'));
    const process = await createNode(api, admin, processIn(processes.nodeId, 'Documented process'));
    const shared = await createNode(api, admin, folder(env, 'Shared documents'));
    const readable = await createNode(api, admin, urlDocument(shared.nodeId, 'Shared manual'));
    const board = await createNode(api, admin, folder(env, 'Board'));
    const hidden = await createNode(api, admin, urlDocument(board.nodeId, 'Board minutes'));
    const readerId = await createUser(api, admin, 'link-reader');
    await grant(api, admin, processes.nodeId, readerId, 'READER');
    await grant(api, admin, shared.nodeId, readerId, 'READER');
    await settled();
    const reader = await api.login('link-reader', PASSWORD);
    const start = (await follow(reader)).cursor;
    for (const target of [readable.nodeId, hidden.nodeId]) {
      const linked = await api.call(
        'PUT',
        `/api/v1/items/${process.nodeId}/relations/documentedBy/${target}`,
        { token: admin },
      );
      expect(linked.status, linked.text).toBe(200);
    }
    await settled();
    const details = async (token: string) =>
      (await follow(token, start)).changes
        .filter((c) => c.kind === 'RELATION_LINKED' && c.nodeId === process.nodeId)
        .map((c) => (c as Change & { detail: string }).detail);
    expect(await details(reader)).toEqual([`documentedBy:${readable.nodeId}`]);
    expect(await details(admin)).toEqual([
      `documentedBy:${readable.nodeId}`,
      `documentedBy:${hidden.nodeId}`,
    ]);
    const listed = await api.call('GET', `/api/v1/items/${process.nodeId}/relations`, { token: reader });
    expect(listed.body.results.map((r: { other: { id: string } }) => r.other.id)).toEqual([readable.nodeId]);

    // Purged, the hidden end can no longer be placed when its unlink is recorded: still not the reader's.
    const purgedFrom = (await follow(admin)).cursor;
    const readerFrom = (await follow(reader)).cursor;
    expect(
      (await api.call('DELETE', `/api/v1/items/${board.nodeId}`, { token: admin, body: {} })).status,
    ).toBe(200);
    expect((await api.call('DELETE', `/api/v1/trash/${board.nodeId}`, { token: admin })).status).toBe(204);
    await settled();
    const unlinks = async (token: string, from: string) =>
      (await follow(token, from)).changes
        .filter((c) => c.kind === 'RELATION_UNLINKED' && c.nodeId === process.nodeId)
        .map((c) => c.detail);
    expect(await unlinks(admin, purgedFrom)).toEqual([`documentedBy:${hidden.nodeId}`]);
    expect(await unlinks(reader, readerFrom)).toEqual([]);
  });

  it('never skips a change that commits while a reader follows the feed', async () => {
    await settled();
    let cursor = (await follow(admin)).cursor;
    const target = await createNode(api, admin, folder(env, 'Busy folder'));
    const seen = new Set<string>();
    let writing = true;
    const reader = (async () => {
      while (writing) {
        const page = await follow(admin, cursor, 5);
        for (const change of page.changes) if (change.kind === 'CREATED') seen.add(change.nodeId);
        cursor = page.cursor;
      }
    })();
    const created = (
      await Promise.all(
        Array.from({ length: 5 }, async (_, writer) => {
          const ids: string[] = [];
          for (let i = 0; i < 12; i++)
            ids.push((await createNode(api, admin, urlDocument(target.nodeId, `w${writer}-${i}`))).nodeId);
          return ids;
        }),
      )
    ).flat();
    await settled();
    writing = false;
    await reader;
    for (const change of (await follow(admin, cursor)).changes)
      if (change.kind === 'CREATED') seen.add(change.nodeId);
    expect(created.filter((id) => !seen.has(id))).toEqual([]);
  });

  it('records again a change whose write outlives the recorder deadline, ahead of a reader following', async () => {
    await settled();
    let cursor = (await follow(admin)).cursor;
    // The recorder's next write of changes is carried out only after SLOW_CALL_MS, long past the settle
    // window: by then a reader is past its stamp. The change must reach the reader all the same.
    ctx.stack.dynamoDb.injectFault('BatchWriteItem', 'slow', 1, (request) => request.includes('"CHANGES#'));
    const node = await createNode(api, admin, folder(env, 'Slowly recorded'));
    const seen: Change[] = [];
    const until = Date.now() + SLOW_CALL_MS + 4 * SETTLE_MS;
    while (Date.now() < until) {
      const page = await follow(admin, cursor);
      seen.push(...page.changes);
      cursor = page.cursor;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(kindsOf(seen, node.nodeId)).toContain('CREATED');
  });

  it('starts at a time with the changes recorded in its millisecond, and takes cursors of milliseconds', async () => {
    const node = await createNode(api, admin, folder(env, 'Recorded at a time'));
    await settled();
    const feed = (await follow(admin)).changes;
    const recorded = feed.find((change) => change.nodeId === node.nodeId && change.kind === 'CREATED');
    expect(recorded?.recordedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const at = recorded?.recordedAt as string;
    const since = await api.call('GET', `/api/v1/changes?since=${at}`, { token: admin });
    expect(since.body.changes.map((change: Change) => change.changeId)).toContain(recorded?.changeId);
    // A time as every time of the API: to the millisecond, comparable with recordedAt.
    expect(since.body.settledUntil).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

    // Cursors issued while positions were kept to the millisecond: a page's end, and a change's.
    const cursorAt = (position: string) => Buffer.from(JSON.stringify({ p: position })).toString('base64url');
    const before = new Date(Date.parse(at) - 1).toISOString();
    const fromHorizon = await api.call('GET', `/api/v1/changes?cursor=${cursorAt(before)}`, { token: admin });
    expect(fromHorizon.status, fromHorizon.text).toBe(200);
    expect(fromHorizon.body.changes.map((change: Change) => change.changeId)).toContain(recorded?.changeId);
    const fromChange = await api.call('GET', `/api/v1/changes?cursor=${cursorAt(`${before}#local-1`)}`, {
      token: admin,
    });
    expect(fromChange.status, fromChange.text).toBe(200);
    expect(fromChange.body.changes.map((change: Change) => change.changeId)).toContain(recorded?.changeId);
  });

  it('refuses a cursor it did not make (400) and one older than the retention (410)', async () => {
    const bad = await api.call('GET', '/api/v1/changes?cursor=not-a-cursor', { token: admin });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatchObject({ in: 'query', path: '$.cursor', rule: 'cursor' });
    // A position the feed cannot have passed yet was not issued by it (following it would skip changes).
    const ahead = Buffer.from(JSON.stringify({ p: '2099-01-01T00:00:00.000000Z#x' })).toString('base64url');
    const forged = await api.call('GET', `/api/v1/changes?cursor=${ahead}`, { token: admin });
    expect(forged.status).toBe(400);
    expect(forged.body.errors[0]).toMatchObject({ in: 'query', path: '$.cursor', rule: 'cursor' });
    const old = await api.call('GET', '/api/v1/changes?since=2020-01-01T00:00:00Z', { token: admin });
    expect(old.status).toBe(410);
    expect(old.body.code).toBe('CURSOR_EXPIRED');
    const both = await api.call('GET', '/api/v1/changes?since=2026-01-01T00:00:00Z&cursor=abc', {
      token: admin,
    });
    expect(both.status).toBe(400);
    const future = await api.call('GET', '/api/v1/changes?since=2099-01-01T00:00:00Z', { token: admin });
    expect(future.status).toBe(400);
    expect(future.body.errors[0]).toMatchObject({ in: 'query', path: '$.since', rule: 'not_future' });
    const justNow = new Date(Date.now() + 1000).toISOString();
    expect((await api.call('GET', `/api/v1/changes?since=${justNow}`, { token: admin })).status).toBe(200);
    const unauthenticated = await api.call('GET', '/api/v1/changes');
    expect(unauthenticated.status).toBe(401);
  });
});
