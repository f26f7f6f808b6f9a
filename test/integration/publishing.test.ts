/**
 * Publishing (spec §2.1, §3) and version history: the next major version, draft=false views of it, the
 * next draft after it, recursive publishing all or nothing, a publish racing an update, and the history
 * with one version read and an old one restored.
 */
import { describe, expect, it } from 'vitest';
import { chain, createNode, folder, urlDocument } from './helpers/library.ts';
import { createUser, grant, PASSWORD } from './helpers/personas.ts';
import { type ApiClient, withAdminSession } from './helpers/test-stack.ts';

let api: ApiClient;
let token: string;
let environmentId: string;
withAdminSession((session) => {
  ({ api, token, environmentId } = session);
});

const publish = (
  nodeId: string,
  body: unknown,
  query = '',
  headers: Record<string, string> = {},
  as = token,
) => api.call('POST', `/api/v1/items/${nodeId}/publish${query}`, { token: as, body, headers });
const retrieve = (nodeId: string, draft = true) =>
  api.call('GET', `/api/v1/items/${nodeId}?draft=${draft}&detail=true`, { token });
async function rename(nodeId: string, name: string) {
  const current = (await retrieve(nodeId)).body;
  const { parent: _parent, ...rest } = current;
  const answer = await api.call('PUT', `/api/v1/items/${nodeId}`, { token, body: { ...rest, name } });
  expect(answer.status).toBe(200);
  return answer.body;
}
const newFolder = async (name: string) =>
  (await createNode(api, token, folder(environmentId, name))).nodeId as string;

/** A new process in a new process set of the environment. */
async function newProcess(name: string) {
  const processes = await createNode(api, token, {
    parent: { nodeId: environmentId },
    '@type': 'NodeElement',
    nodeType: 'PROCESS_SET',
    name: 'Processes',
  });
  return createNode(api, token, {
    parent: { nodeId: processes.nodeId },
    '@type': 'Process',
    nodeType: 'PROCESS',
    name,
  });
}

describe('publishing', () => {
  it('moves to the next major version, PUBLISHED, publishedNodeVersionId = nodeVersionId, shown by draft=false', async () => {
    const folderId = await newFolder('Published');
    const document = await createNode(api, token, urlDocument(folderId, 'Travel policy'));
    expect((await retrieve(document.nodeId, false)).status).toBe(404);

    const published = await publish(document.nodeId, { nodeVersionId: document.nodeVersionId });
    expect(published.status).toBe(200);
    const [node] = published.body;
    expect(node).toMatchObject({ nodeId: document.nodeId, version: '1.0000', nodeStatus: 'PUBLISHED' });
    expect(node.publishedNodeVersionId).toBe(node.nodeVersionId);
    expect(node.nodeVersionId).not.toBe(document.nodeVersionId);

    const view = await retrieve(document.nodeId, false);
    expect(view.body).toMatchObject({ version: '1.0000', nodeStatus: 'PUBLISHED', name: 'Travel policy' });
    const listed = await api.call('GET', `/api/v1/list/${folderId}?draft=false`, { token });
    expect(
      listed.body.results.map((r: { nodeId: string; version: string }) => [r.nodeId, r.version]),
    ).toEqual([[document.nodeId, '1.0000']]);
    const publishedList = await api.call(
      'GET',
      `/api/v1/list?draft=false&nodeType=DOCUMENT&nodeStatus=PUBLISHED`,
      { token },
    );
    expect(publishedList.body.results.map((r: { nodeId: string }) => r.nodeId)).toContain(document.nodeId);

    // A write starts the next draft; the published version stays readable as it was.
    const edited = await rename(document.nodeId, 'Travel policy 2027');
    expect(edited).toMatchObject({
      version: '1.0001',
      nodeStatus: 'IN_PROGRESS',
      publishedNodeVersionId: node.nodeVersionId,
    });
    expect((await retrieve(document.nodeId, false)).body).toMatchObject({
      name: 'Travel policy',
      version: '1.0000',
    });

    const again = await publish(document.nodeId, {}, '', { 'if-match': `W/"${edited.nodeVersionId}"` });
    expect(again.body[0]).toMatchObject({
      version: '2.0000',
      nodeStatus: 'PUBLISHED',
      name: 'Travel policy 2027',
    });
    expect((await retrieve(document.nodeId, false)).body.name).toBe('Travel policy 2027');
  });

  it('counts published objects exactly in the governance maturity list', async () => {
    const maturity = async () =>
      (await api.call('GET', '/api/v1/governance/maturity-list', { token })).body.results.find(
        (r: { facet: string }) => r.facet === 'document',
      );
    const before = await maturity();
    const folderId = await newFolder('Counted');
    const document = await createNode(api, token, urlDocument(folderId, 'Counted'));
    await publish(document.nodeId, { nodeVersionId: document.nodeVersionId });
    const after = await maturity();
    expect(after.published).toBe((before?.published ?? 0) + 1);
    expect(after.total).toBe((before?.total ?? 0) + 1);
  });

  it('needs the current version quoted, and the environment admin role', async () => {
    const document = await createNode(api, token, urlDocument(await newFolder('Quoted'), 'Quoted'));
    const unquoted = await publish(document.nodeId, {});
    expect(unquoted.status).toBe(400);
    expect(unquoted.body.errors[0]).toMatchObject({ path: '$.nodeVersionId', rule: 'required' });
    const stale = await publish(document.nodeId, { nodeVersionId: '00000000-0000-4000-8000-000000000000' });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('VERSION_CONFLICT');
    const staleMatch = await publish(document.nodeId, {}, '', {
      'if-match': 'W/"00000000-0000-4000-8000-000000000000"',
    });
    expect(staleMatch.status).toBe(412);

    const editorId = await createUser(api, token, 'publishing-editor');
    await grant(api, token, environmentId, editorId, 'EDITOR');
    const editor = await api.login('publishing-editor', PASSWORD);
    const refused = await publish(document.nodeId, { nodeVersionId: document.nodeVersionId }, '', {}, editor);
    expect(refused.status).toBe(403);
    expect((await retrieve(document.nodeId)).body.nodeStatus).toBe('IN_PROGRESS');
  });

  it('takes If-Match: * as no quote: alone it is the 400 of no quote, beside a body quote a precondition', async () => {
    const document = await createNode(api, token, urlDocument(await newFolder('Starred'), 'Starred'));
    for (const body of [{}, undefined]) {
      const starOnly = await publish(document.nodeId, body, '', { 'if-match': '*' });
      expect(starOnly.status).toBe(400);
      expect(starOnly.body.code).toBe('VERSION_REQUIRED');
      expect(starOnly.body.errors[0]).toMatchObject({ path: '$.nodeVersionId', rule: 'required' });
    }
    // Restoring a version quotes the version alike.
    const restore = await api.call(
      'POST',
      `/api/v1/items/${document.nodeId}/versions/${document.nodeVersionId}/restore`,
      { token, body: {}, headers: { 'if-match': '*' } },
    );
    expect(restore.status).toBe(400);
    expect(restore.body.code).toBe('VERSION_REQUIRED');
    expect((await retrieve(document.nodeId)).body).toMatchObject({
      nodeVersionId: document.nodeVersionId,
      version: '0.0001',
      nodeStatus: 'IN_PROGRESS',
    });

    const quoted = await publish(document.nodeId, { nodeVersionId: document.nodeVersionId }, '', {
      'if-match': '*',
    });
    expect(quoted.status).toBe(200);
    expect(quoted.body[0]).toMatchObject({ version: '1.0000', nodeStatus: 'PUBLISHED' });
  });

  it('refuses a publish whose If-None-Match names the current version (or is *) with 412, publishing nothing', async () => {
    const document = await createNode(api, token, urlDocument(await newFolder('Not again'), 'Not again'));
    for (const ifNoneMatch of ['*', `W/"${document.nodeVersionId}"`]) {
      const refused = await publish(document.nodeId, { nodeVersionId: document.nodeVersionId }, '', {
        'if-none-match': ifNoneMatch,
      });
      expect(refused.status, ifNoneMatch).toBe(412);
      expect(refused.body).toMatchObject({ code: 'PRECONDITION_FAILED' });
      expect(refused.body.detail).toContain('If-None-Match');
    }
    expect((await retrieve(document.nodeId)).body.nodeStatus).toBe('IN_PROGRESS');
    expect((await retrieve(document.nodeId, false)).status).toBe(404);
  });

  it('publishes a folder with its subtree, in one transaction or, when larger, in steps', async () => {
    const folderId = await newFolder('Handbook');
    const documents = await Promise.all(
      ['A', 'B', 'C'].map((name) => createNode(api, token, urlDocument(folderId, name))),
    );
    const current = (await retrieve(folderId)).body;
    const published = await publish(folderId, { nodeVersionId: current.nodeVersionId }, '?recursive=true');
    expect(published.status).toBe(200);
    expect(published.body.map((n: { nodeId: string }) => n.nodeId).sort()).toEqual(
      [folderId, ...documents.map((d) => d.nodeId)].sort(),
    );
    for (const document of documents)
      expect((await retrieve(document.nodeId, false)).body.version).toBe('1.0000');

    // More than one transaction holds: committed in steps, the folder last, every object published.
    const large = await newFolder('Large');
    for (let i = 0; i < 41; i += 10) {
      await Promise.all(
        Array.from({ length: Math.min(10, 41 - i) }, (_, k) =>
          createNode(api, token, urlDocument(large, `Doc ${i + k}`)),
        ),
      );
    }
    const largeFolder = (await retrieve(large)).body;
    const all = await publish(large, { nodeVersionId: largeFolder.nodeVersionId }, '?recursive=true');
    expect(all.status, all.text).toBe(200);
    expect(all.body).toHaveLength(42);
    expect(new Set(all.body.map((n: { nodeStatus: string }) => n.nodeStatus))).toEqual(
      new Set(['PUBLISHED']),
    );
    const listed = await api.call('GET', `/api/v1/list/${large}?draft=false&pageSize=100`, { token });
    expect(listed.body.totalRecords).toBe(41);
    expect((await retrieve(large, false)).body.version).toBe('1.0000');
  });

  it('a published view names parents as published: a folder renamed since shows its published name', async () => {
    const folderId = await newFolder('Handbook as published');
    const document = await createNode(api, token, urlDocument(folderId, 'Chapter'));
    const never = await newFolder('Never published');
    const unpublishedParent = await createNode(api, token, urlDocument(never, 'Published alone'));
    const current = (await retrieve(folderId)).body;
    expect(
      (await publish(folderId, { nodeVersionId: current.nodeVersionId }, '?recursive=true')).status,
    ).toBe(200);
    expect(
      (await publish(unpublishedParent.nodeId, { nodeVersionId: unpublishedParent.nodeVersionId })).status,
    ).toBe(200);
    await rename(folderId, 'Handbook renamed, not published');
    const parentName = async (path: string) =>
      ((await api.call('GET', path, { token })).body as { parent: { name: string } | null }).parent?.name;
    const listedParent = async (folder: string, draft: boolean) =>
      (
        (await api.call('GET', `/api/v1/list/${folder}?draft=${draft}`, { token })).body.results as {
          parent: { name: string };
        }[]
      )[0]?.parent.name;
    expect(await parentName(`/api/v1/document/documents/${document.nodeId}?draft=false`)).toBe(
      'Handbook as published',
    );
    expect(await listedParent(folderId, false)).toBe('Handbook as published');
    expect(await parentName(`/api/v1/document/documents/${document.nodeId}`)).toBe(
      'Handbook renamed, not published',
    );
    expect(await listedParent(folderId, true)).toBe('Handbook renamed, not published');
    // A parent never published is named as it is.
    expect(await parentName(`/api/v1/document/documents/${unpublishedParent.nodeId}?draft=false`)).toBe(
      'Never published',
    );
    expect(await listedParent(never, false)).toBe('Never published');
  });

  it('publishes a process with more tasks than one transaction holds, its diagram whole', async () => {
    const process = await newProcess('Long chain');
    const count = 45;
    const added = await api.call('POST', `/api/v1/process/nodes?process=${process.nodeId}`, {
      token,
      body: chain(count, 's'),
    });
    expect(added.status, added.text).toBe(200);
    const current = (await retrieve(process.nodeId)).body;
    const published = await publish(process.nodeId, { nodeVersionId: current.nodeVersionId });
    expect(published.status, published.text).toBe(200);
    expect(published.body).toHaveLength(count + 1);
    const shown = (
      await api.call('GET', `/api/v1/process/processes/${process.nodeId}?draft=false`, { token })
    ).body;
    expect(shown.version).toBe('1.0000');
    expect(shown.tasks.map((task: { name: string }) => task.name)).toEqual(
      Array.from({ length: count }, (_, i) => `Task s${i}`),
    );
    expect(shown.tasks.every((task: { version: string }) => task.version === '1.0000')).toBe(true);
    expect(shown.edges).toHaveLength(count - 1);
  });

  it('publishes a process with its tasks: draft=false shows the published diagram', async () => {
    const process = await newProcess('Order to cash');
    const added = await api.call('POST', `/api/v1/process/nodes?process=${process.nodeId}`, {
      token,
      body: [
        {
          '@type': 'TaskNode',
          nodeType: 'TASK',
          name: 'Check',
          sequenceNumber: 1,
          topLeftX: 0,
          topLeftY: 0,
          width: 100,
          height: 80,
          editId: 'a',
          edges: [
            {
              sourceNodeId: 'a',
              sourcePortPoint: { x: 1, y: 1 },
              targetNodeId: 'b',
              targetPortPoint: { x: 2, y: 2 },
            },
          ],
        },
        {
          '@type': 'TaskNode',
          nodeType: 'TASK',
          name: 'Ship',
          sequenceNumber: 2,
          topLeftX: 200,
          topLeftY: 0,
          width: 100,
          height: 80,
          editId: 'b',
        },
      ],
    });
    expect(added.status).toBe(200);
    const current = (await retrieve(process.nodeId)).body;
    const published = await publish(process.nodeId, { nodeVersionId: current.nodeVersionId });
    expect(published.body).toHaveLength(3);
    // The draft loses its edge; the published diagram keeps the edges it was published with.
    const draft = (await api.call('GET', `/api/v1/process/processes/${process.nodeId}`, { token })).body;
    const removed = await api.call(
      'DELETE',
      `/api/v1/process/processes/${process.nodeId}/edges/${draft.edges[0].edgeId}`,
      {
        token,
      },
    );
    expect(removed.status).toBe(204);
    expect(
      (await api.call('GET', `/api/v1/process/processes/${process.nodeId}`, { token })).body.edges,
    ).toEqual([]);
    const diagram = await api.call('GET', `/api/v1/process/processes/${process.nodeId}?draft=false`, {
      token,
    });
    expect(diagram.body).toMatchObject({ version: '1.0000', nodeStatus: 'PUBLISHED' });
    expect(diagram.body.tasks).toEqual([
      expect.objectContaining({ name: 'Check', version: '1.0000', nodeStatus: 'PUBLISHED' }),
      expect.objectContaining({ name: 'Ship', version: '1.0000', nodeStatus: 'PUBLISHED' }),
    ]);
    expect(diagram.body.edges).toEqual([draft.edges[0]]);
  });

  it('a task deleted after publishing stays in the published diagram until the process is published again', async () => {
    const process = await newProcess('Procure to pay');
    const task = (name: string, editId: string, sequenceNumber: number) => ({
      '@type': 'TaskNode',
      nodeType: 'TASK',
      name,
      sequenceNumber,
      topLeftX: sequenceNumber * 200,
      topLeftY: 0,
      width: 100,
      height: 80,
      editId,
    });
    const added = await api.call('POST', `/api/v1/process/nodes?process=${process.nodeId}`, {
      token,
      body: [
        {
          ...task('Order', 'a', 1),
          edges: [
            {
              sourceNodeId: 'a',
              sourcePortPoint: { x: 1, y: 1 },
              targetNodeId: 'b',
              targetPortPoint: { x: 2, y: 2 },
            },
          ],
        },
        task('Pay', 'b', 2),
      ],
    });
    expect(added.status, added.text).toBe(200);
    const diagramOf = async (draft: boolean) =>
      (await api.call('GET', `/api/v1/process/processes/${process.nodeId}?draft=${draft}`, { token })).body;
    const publishNow = async () => {
      const answer = await publish(process.nodeId, {
        nodeVersionId: (await retrieve(process.nodeId)).body.nodeVersionId,
      });
      expect(answer.status, answer.text).toBe(200);
    };
    await publishNow();
    const asPublished = await diagramOf(false);
    const pay = asPublished.tasks.find((t: { name: string }) => t.name === 'Pay');

    const deleted = await api.call('DELETE', `/api/v1/items/${pay.nodeId}`, { token, body: {} });
    expect(deleted.status, deleted.text).toBe(200);
    expect((await diagramOf(true)).tasks.map((t: { name: string }) => t.name)).toEqual(['Order']);
    expect((await diagramOf(true)).edges).toEqual([]);
    // The published diagram is as it was published: the deleted task as published, its edge too.
    const still = await diagramOf(false);
    expect(still.tasks).toEqual(asPublished.tasks);
    expect(still.tasks[1]).toMatchObject({ name: 'Pay', deleted: false, nodeStatus: 'PUBLISHED' });
    expect(still.edges).toEqual(asPublished.edges);
    expect(still.edges).toHaveLength(1);
    // The task itself is in the trash, its published version with it.
    expect((await retrieve(pay.nodeId, false)).status).toBe(404);

    // Restored, it is in both again; deleted and published again, it is in neither.
    expect((await api.call('POST', `/api/v1/items/${pay.nodeId}/restore`, { token })).status).toBe(200);
    expect((await diagramOf(false)).tasks).toEqual(asPublished.tasks);
    expect((await diagramOf(true)).tasks.map((t: { name: string }) => t.name)).toEqual(['Order', 'Pay']);
    expect((await api.call('DELETE', `/api/v1/items/${pay.nodeId}`, { token, body: {} })).status).toBe(200);
    await publishNow();
    const republished = await diagramOf(false);
    expect(republished.tasks.map((t: { name: string }) => t.name)).toEqual(['Order']);
    expect(republished.edges).toEqual([]);

    // Which tasks the published diagram has changes only when the process is published: not when a task
    // comes back from the trash, nor when a new task is published on its own.
    expect((await api.call('POST', `/api/v1/items/${pay.nodeId}/restore`, { token })).status).toBe(200);
    const audit = await api.call('POST', `/api/v1/process/nodes?process=${process.nodeId}`, {
      token,
      body: [task('Audit', 'c', 3)],
    });
    expect(audit.status, audit.text).toBe(200);
    const auditId = (await diagramOf(true)).tasks.find((t: { name: string }) => t.name === 'Audit').nodeId;
    const auditAlone = await publish(auditId, {
      nodeVersionId: (await retrieve(auditId)).body.nodeVersionId,
    });
    expect(auditAlone.status, auditAlone.text).toBe(200);
    expect(await diagramOf(false)).toEqual(republished);
    await publishNow();
    expect((await diagramOf(false)).tasks.map((t: { name: string }) => t.name)).toEqual([
      'Order',
      'Pay',
      'Audit',
    ]);
    // A task of the published diagram published again on its own shows as it was then published.
    await rename(auditId, 'Audit trail');
    expect(
      (await publish(auditId, { nodeVersionId: (await retrieve(auditId)).body.nodeVersionId })).status,
    ).toBe(200);
    expect((await diagramOf(false)).tasks.map((t: { name: string }) => t.name)).toEqual([
      'Order',
      'Pay',
      'Audit trail',
    ]);
  });

  it('a publish racing an update: one wins, the other is a 409, and no mixed state is left', async () => {
    for (let round = 0; round < 4; round++) {
      const document = await createNode(api, token, urlDocument(await newFolder(`Race ${round}`), 'Race'));
      const detailed = (await retrieve(document.nodeId)).body;
      const { parent: _parent, ...body } = detailed;
      const [published, updated] = await Promise.all([
        publish(document.nodeId, { nodeVersionId: document.nodeVersionId }),
        api.call('PUT', `/api/v1/items/${document.nodeId}`, { token, body: { ...body, name: 'Renamed' } }),
      ]);
      expect([published.status, updated.status].sort()).toEqual([200, 409]);
      const draft = (await retrieve(document.nodeId)).body;
      const live = await retrieve(document.nodeId, false);
      if (published.status === 200) {
        expect(draft).toMatchObject({ version: '1.0000', nodeStatus: 'PUBLISHED', name: 'Race' });
        expect(live.body).toMatchObject({ nodeVersionId: draft.nodeVersionId, name: 'Race' });
      } else {
        expect(draft).toMatchObject({ version: '0.0002', nodeStatus: 'IN_PROGRESS', name: 'Renamed' });
        expect(live.status).toBe(404);
      }
    }
  });
});

describe('version history', () => {
  it('lists every version newest first, paged; reads one as it was; restores an old one as the next draft', async () => {
    const document = await createNode(api, token, urlDocument(await newFolder('History'), 'First'));
    await rename(document.nodeId, 'Second');
    const third = await rename(document.nodeId, 'Third');
    const [published] = (await publish(document.nodeId, { nodeVersionId: third.nodeVersionId })).body;
    await rename(document.nodeId, 'Fourth');

    const versions = async (query = '') =>
      (await api.call('GET', `/api/v1/items/${document.nodeId}/versions${query}`, { token })).body;
    const all = await versions();
    expect(all.results.map((v: { version: string }) => v.version)).toEqual([
      '1.0001',
      '1.0000',
      '0.0003',
      '0.0002',
      '0.0001',
    ]);
    expect(all.results[0]).toMatchObject({
      current: true,
      name: 'Fourth',
      nodeStatus: 'IN_PROGRESS',
      lastModifiedByName: 'admin',
    });
    expect(all.results[1]).toMatchObject({
      current: false,
      nodeStatus: 'PUBLISHED',
      nodeVersionId: published.nodeVersionId,
    });

    const walked: string[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const page = await versions(`?pageSize=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.results.length).toBeLessThanOrEqual(2);
      walked.push(...page.results.map((v: { version: string }) => v.version));
      cursor = page.nextCursor;
    }
    expect(walked).toEqual(['1.0001', '1.0000', '0.0003', '0.0002', '0.0001']);

    const first = all.results[4];
    const old = await api.call('GET', `/api/v1/items/${document.nodeId}/versions/${first.nodeVersionId}`, {
      token,
    });
    expect(old.body).toMatchObject({ name: 'First', version: '0.0001', url: expect.any(String) });
    expect(
      (
        await api.call(
          'GET',
          `/api/v1/items/${document.nodeId}/versions/00000000-0000-4000-8000-000000000000`,
          { token },
        )
      ).status,
    ).toBe(404);

    const restored = await api.call(
      'POST',
      `/api/v1/items/${document.nodeId}/versions/${first.nodeVersionId}/restore`,
      {
        token,
        body: { nodeVersionId: all.results[0].nodeVersionId },
      },
    );
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ name: 'First', version: '1.0002', nodeStatus: 'IN_PROGRESS' });
    expect((await retrieve(document.nodeId, false)).body).toMatchObject({ name: 'Third', version: '1.0000' });
    expect((await versions()).results.map((v: { name: string }) => v.name)).toEqual([
      'First',
      'Fourth',
      'Third',
      'Third',
      'Second',
      'First',
    ]);
  });

  it('keeps every version through a delete and a restore, the published one included', async () => {
    const document = await createNode(api, token, urlDocument(await newFolder('Deleted history'), 'First'));
    const second = await rename(document.nodeId, 'Second');
    const [published] = (await publish(document.nodeId, { nodeVersionId: second.nodeVersionId })).body;
    const fourth = await rename(document.nodeId, 'Fourth');
    const deleted = await api.call('DELETE', `/api/v1/items/${document.nodeId}`, { token, body: {} });
    expect(deleted.status).toBe(200);
    expect((await api.call('POST', `/api/v1/items/${document.nodeId}/restore`, { token })).status).toBe(200);

    const history = (await api.call('GET', `/api/v1/items/${document.nodeId}/versions`, { token })).body;
    const ids = history.results.map((v: { nodeVersionId: string }) => v.nodeVersionId);
    expect(ids).toEqual(
      expect.arrayContaining([fourth.nodeVersionId, published.nodeVersionId, second.nodeVersionId]),
    );
    for (const [id, name] of [
      [fourth.nodeVersionId, 'Fourth'],
      [published.nodeVersionId, 'Second'],
    ]) {
      const version = await api.call('GET', `/api/v1/items/${document.nodeId}/versions/${id}`, { token });
      expect(version.status, version.text).toBe(200);
      expect(version.body.name).toBe(name);
    }
    // The copy the delete answered is a version too, between the last edit and the restored draft.
    expect(history.results.map((v: { version: string }) => v.version)).toEqual([
      '1.0003',
      '1.0002',
      '1.0001',
      '1.0000',
      '0.0002',
      '0.0001',
    ]);
    expect(ids[1]).toBe(deleted.body[0].nodeVersionId);
  });

  it('restoring an old version of a FILE document brings its file back', async () => {
    const folderId = await newFolder('Files history');
    const upload = (identifier: string, text: string) =>
      api.call(
        'POST',
        `/upload/?${new URLSearchParams({ resumableIdentifier: identifier, resumableFilename: 'plan.txt', resumableChunkSize: '1', resumableChunkNumber: '1', resumableTotalSize: '1' })}`,
        { token, rawBody: text, headers: { 'content-type': 'text/plain' } },
      );
    await upload('history-1', 'first plan');
    const document = await createNode(api, token, {
      parent: { nodeId: folderId },
      '@type': 'Document',
      nodeType: 'DOCUMENT',
      name: 'Plan',
      documentType: 'FILE',
      fileInfo: { uploadIdentifier: 'history-1', name: 'plan.txt' },
    });
    await publish(document.nodeId, { nodeVersionId: document.nodeVersionId });
    await upload('history-2', 'second plan');
    const detailed = (await retrieve(document.nodeId)).body;
    const { parent: _parent, ...body } = detailed;
    const replaced = await api.call('PUT', `/api/v1/items/${document.nodeId}`, {
      token,
      body: { ...body, fileInfo: { uploadIdentifier: 'history-2', name: 'plan.txt' } },
    });
    const content = async () =>
      (await api.call('GET', `/api/v1/document/documents/${document.nodeId}/content`, { token })).text;
    expect(await content()).toBe('second plan');
    // draft=false downloads the published version's file.
    const published = await api.call(
      'GET',
      `/api/v1/document/documents/${document.nodeId}/content?draft=false`,
      {
        token,
      },
    );
    expect(published.text).toBe('first plan');
    const old = await api.call('GET', `/api/v1/items/${document.nodeId}/versions/${document.nodeVersionId}`, {
      token,
    });
    expect(old.body.fileInfo).toMatchObject({ uploadIdentifier: 'history-1', size: 10 });
    const restored = await api.call(
      'POST',
      `/api/v1/items/${document.nodeId}/versions/${document.nodeVersionId}/restore`,
      {
        token,
        body: { nodeVersionId: replaced.body.nodeVersionId },
      },
    );
    expect(restored.status).toBe(200);
    expect(await content()).toBe('first plan');
  });
});

describe('actions follow versions (spec §2.6)', () => {
  it('on the next published version: none until the object is next published; on the latest: always the current one', async () => {
    const document = await createNode(api, token, urlDocument(await newFolder('Reviewed'), 'Reviewed'));
    const [first] = (await publish(document.nodeId, { nodeVersionId: document.nodeVersionId })).body;
    const readerId = await createUser(api, token, 'action-reader');
    await grant(api, token, environmentId, readerId, 'READER');
    const assign = async (on: string) =>
      (
        await api.call('POST', '/api/v1/admin/actions', {
          token,
          body: {
            actionType: 'REVIEW',
            targetNodeId: document.nodeId,
            users: [readerId],
            dueDate: '2027-01-31',
            on,
          },
        })
      ).body[0];
    const next = await assign('NEXT_PUBLISHED');
    const latest = await assign('LATEST_PUBLISHED');
    expect(next).toMatchObject({ onNextPublished: true, targetNodeVersionId: null, targetVersion: null });
    expect(latest).toMatchObject({
      onLatestPublished: true,
      targetNodeVersionId: first.nodeVersionId,
      targetVersion: '1.0000',
    });

    const action = async (id: string) =>
      (await api.call('GET', `/api/v1/admin/actions/${id}`, { token })).body;
    // A delete and a restore publish nothing: the copy the delete left is kept, but not as a publish.
    expect((await api.call('DELETE', `/api/v1/items/${document.nodeId}`, { token, body: {} })).status).toBe(
      200,
    );
    expect((await api.call('POST', `/api/v1/items/${document.nodeId}/restore`, { token })).status).toBe(200);
    expect((await action(next.actionId)).targetNodeVersionId).toBeNull();
    const history = (await api.call('GET', `/api/v1/items/${document.nodeId}/versions`, { token })).body;
    expect(
      (history.results as { version: string; deleted: boolean }[]).map((v) => [v.version, v.deleted]),
    ).toEqual([
      ['1.0002', false],
      ['1.0001', true],
      ['1.0000', false],
      ['0.0001', false],
    ]);

    const edited = await rename(document.nodeId, 'Reviewed, edited');
    expect((await action(next.actionId)).targetNodeVersionId).toBeNull();
    const [second] = (await publish(document.nodeId, { nodeVersionId: edited.nodeVersionId })).body;
    expect(await action(next.actionId)).toMatchObject({
      targetNodeVersionId: second.nodeVersionId,
      targetVersion: '2.0000',
    });
    expect(await action(latest.actionId)).toMatchObject({
      targetNodeVersionId: second.nodeVersionId,
      targetVersion: '2.0000',
    });

    // A third publish moves the latest, not the next (it was the one published after the assignment).
    const again = await rename(document.nodeId, 'Reviewed, third');
    const [third] = (await publish(document.nodeId, { nodeVersionId: again.nodeVersionId })).body;
    expect((await action(next.actionId)).targetVersion).toBe('2.0000');
    expect(await action(latest.actionId)).toMatchObject({
      targetNodeVersionId: third.nodeVersionId,
      targetVersion: '3.0000',
    });
    const reader = await api.login('action-reader', PASSWORD);
    const mine = (await api.call('GET', '/api/v1/users/me/actions', { token: reader })).body.results;
    expect(mine.find((a: { actionId: string }) => a.actionId === next.actionId).targetVersion).toBe('2.0000');
  });
});
