/**
 * The trash: a deleted subtree listed for those who may delete it, restored as it was (more than one
 * transaction of it, counts, lists, links, published copies and edges exact again), refused under a
 * deleted parent or past the tasks and edges a process holds, raced by a create beside it, and purged for
 * good with its files.
 */
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { createNode, folder, processFolder, processIn, taskNodes, urlDocument } from './helpers/library.ts';
import { createUser, grant, PASSWORD } from './helpers/personas.ts';
import {
  type AdminSession,
  type ApiClient,
  bucketClient,
  tableClient,
  withAdminSession,
} from './helpers/test-stack.ts';

let session: AdminSession;
let api: ApiClient;
let token: string;
let environmentId: string;
withAdminSession((s) => {
  session = s;
  ({ api, token, environmentId } = s);
});

const remove = (nodeId: string) => api.call('DELETE', `/api/v1/items/${nodeId}`, { token, body: {} });
const restore = (nodeId: string, as = token) =>
  api.call('POST', `/api/v1/items/${nodeId}/restore`, { token: as });
const childrenTotal = async (nodeId: string) =>
  (await api.call('GET', `/api/v1/list/${nodeId}?pageSize=1`, { token })).body.totalRecords as number;
const trash = async (as = token) =>
  (await api.call('GET', '/api/v1/trash?pageSize=100', { token: as })).body.results as {
    nodeId: string;
    nodes: number;
    parentId: string | null;
  }[];

describe('the trash', () => {
  it('restores a subtree of more than one transaction as it was: lists, counts, published copies and edges', async () => {
    const environmentBefore = await childrenTotal(environmentId);
    const root = (await createNode(api, token, folder(environmentId, 'Archive'))).nodeId as string;
    for (let i = 0; i < 60; i += 15) {
      await Promise.all(
        Array.from({ length: 15 }, (_, k) => createNode(api, token, urlDocument(root, `Doc ${i + k}`))),
      );
    }
    const published = await createNode(api, token, urlDocument(root, 'Published'));
    await api.call('POST', `/api/v1/items/${published.nodeId}/publish`, {
      token,
      body: { nodeVersionId: published.nodeVersionId },
    });
    const processes = await createNode(api, token, {
      parent: { nodeId: environmentId },
      '@type': 'NodeElement',
      nodeType: 'PROCESS_SET',
      name: 'Trash processes',
    });
    const process = await createNode(api, token, {
      parent: { nodeId: processes.nodeId },
      '@type': 'Process',
      nodeType: 'PROCESS',
      name: 'Kept edges',
    });
    const task = (name: string, editId: string, to?: string) => ({
      '@type': 'TaskNode',
      nodeType: 'TASK',
      name,
      sequenceNumber: 1,
      topLeftX: 0,
      topLeftY: 0,
      width: 100,
      height: 80,
      editId,
      ...(to
        ? {
            edges: [
              {
                sourceNodeId: editId,
                sourcePortPoint: { x: 1, y: 2 },
                targetNodeId: to,
                targetPortPoint: { x: 3, y: 4 },
              },
            ],
          }
        : {}),
    });
    await api.call('POST', `/api/v1/process/nodes?process=${process.nodeId}`, {
      token,
      body: [task('A', 'a', 'b'), task('B', 'b')],
    });
    const diagramBefore = (await api.call('GET', `/api/v1/process/processes/${process.nodeId}`, { token }))
      .body;

    expect((await remove(root)).status).toBe(200);
    expect((await remove(processes.nodeId)).status).toBe(200);
    expect(await childrenTotal(environmentId)).toBe(environmentBefore);
    const listed = await trash();
    expect(listed.slice(0, 2).map((e) => [e.nodeId, e.nodes])).toEqual([
      [processes.nodeId, 4],
      [root, 62],
    ]);

    const back = await restore(root);
    expect(back.status).toBe(200);
    expect(back.body).toHaveLength(62);
    expect(back.body[0]).toMatchObject({ nodeId: root, deleted: false });
    expect(await childrenTotal(root)).toBe(61);
    expect(await childrenTotal(environmentId)).toBe(environmentBefore + 1);
    expect(
      (await api.call('GET', `/api/v1/items/${published.nodeId}?draft=false`, { token })).body.name,
    ).toBe('Published');
    expect((await restore(processes.nodeId)).status).toBe(200);
    const diagram = (await api.call('GET', `/api/v1/process/processes/${process.nodeId}`, { token })).body;
    expect(diagram.tasks.map((t: { nodeId: string }) => t.nodeId)).toEqual(
      diagramBefore.tasks.map((t: { nodeId: string }) => t.nodeId),
    );
    expect(diagram.edges).toEqual(diagramBefore.edges);
    expect((await trash()).map((e) => e.nodeId)).not.toContain(root);
    expect((await restore(root)).status).toBe(404);
  });

  it('refuses a restore under a deleted parent, and lists only for those who may delete', async () => {
    const outer = (await createNode(api, token, folder(environmentId, 'Outer'))).nodeId as string;
    const inner = (await createNode(api, token, folder(outer, 'Inner'))).nodeId as string;
    await createNode(api, token, urlDocument(inner, 'Deep'));
    await remove(inner);
    await remove(outer);
    const refused = await restore(inner);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('PARENT_DELETED');

    const editorId = await createUser(api, token, 'trash-editor');
    await grant(api, token, environmentId, editorId, 'EDITOR');
    const editor = await api.login('trash-editor', PASSWORD);
    expect(await trash(editor)).toEqual([]);
    expect((await restore(outer, editor)).status).toBe(403);

    const outerBack = await restore(outer);
    expect(outerBack.status, outerBack.text).toBe(200);
    const innerBack = await restore(inner);
    expect(innerBack.status, innerBack.text).toBe(200);
    expect(await childrenTotal(inner)).toBe(1);
  });

  it('names a parent in the trash and in its refusals only to whoever may read it', async () => {
    const hidden = (await createNode(api, token, folder(environmentId, 'Hidden above'))).nodeId as string;
    const granted = (await createNode(api, token, folder(hidden, 'Granted below'))).nodeId as string;
    const adminId = await createUser(api, token, 'trash-sub-admin');
    await grant(api, token, granted, adminId, 'ENVIRONMENT_ADMIN');
    const subAdmin = await api.login('trash-sub-admin', PASSWORD);
    expect((await remove(granted)).status).toBe(200);

    const listed = (await api.call('GET', '/api/v1/trash?pageSize=100', { token: subAdmin })).body.results;
    expect(listed).toMatchObject([{ nodeId: granted, parentId: null }]);
    expect((await trash()).find((entry) => entry.nodeId === granted)).toMatchObject({ parentId: hidden });

    await remove(hidden);
    const refused = await restore(granted, subAdmin);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('PARENT_DELETED');
    expect(refused.text).not.toContain(hidden);
    const toAdmin = await restore(granted);
    expect(toAdmin.body).toMatchObject({ code: 'PARENT_DELETED', parentId: hidden });
  });

  it("walks an environment admin's trash by cursor without any cursor naming another environment's subtree", async () => {
    const otherEnvironment = (
      await createNode(api, token, { '@type': 'NodeElement', nodeType: 'ENVIRONMENT', name: 'Elsewhere' })
    ).nodeId as string;
    const deletedFolder = async (parentId: string, name: string) => {
      const nodeId = (await createNode(api, token, folder(parentId, name))).nodeId as string;
      expect((await remove(nodeId)).status).toBe(200);
      return nodeId;
    };
    // Newest first: one of ours, more of the other environment than five reads of a page of one take, one of ours.
    const older = await deletedFolder(environmentId, 'Ours, older');
    const hidden: string[] = [];
    for (let i = 0; i < 6; i++) hidden.push(await deletedFolder(otherEnvironment, `Theirs ${i}`));
    const newer = await deletedFolder(environmentId, 'Ours, newer');

    const adminId = await createUser(api, token, 'trash-walker');
    await grant(api, token, environmentId, adminId, 'ENVIRONMENT_ADMIN');
    const walker = await api.login('trash-walker', PASSWORD);
    const walked: string[] = [];
    let cursor: string | null = null;
    do {
      const page: any = await api.call(
        'GET',
        `/api/v1/trash?pageSize=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        { token: walker },
      );
      expect(page.status).toBe(200);
      walked.push(...page.body.results.map((e: { nodeId: string }) => e.nodeId));
      cursor = page.body.nextCursor;
      if (cursor) {
        const decoded = Buffer.from(cursor, 'base64url').toString('utf8');
        for (const id of hidden) expect(decoded).not.toContain(id);
      }
    } while (cursor);
    expect(walked.slice(0, 2)).toEqual([newer, older]);
    for (const id of hidden) expect(walked).not.toContain(id);
  });

  it('purges with a folder what was deleted from it on its own before, which could never come back', async () => {
    const parent = (await createNode(api, token, folder(environmentId, 'Purged with its past')))
      .nodeId as string;
    const earlier = (await createNode(api, token, urlDocument(parent, 'Deleted first'))).nodeId as string;
    const sub = (await createNode(api, token, folder(parent, 'Sub'))).nodeId as string;
    const deeper = (await createNode(api, token, urlDocument(sub, 'Deleted from the sub'))).nodeId as string;
    expect((await remove(earlier)).status).toBe(200);
    expect((await remove(deeper)).status).toBe(200);
    expect((await remove(parent)).status).toBe(200);
    const purge = await api.call('DELETE', `/api/v1/trash/${parent}`, { token });
    expect(purge.status, purge.text).toBe(204);
    const listed = (await trash()).map((entry) => entry.nodeId);
    for (const id of [parent, earlier, deeper]) {
      expect(listed).not.toContain(id);
      expect((await restore(id)).status).toBe(404);
      expect((await api.call('DELETE', `/api/v1/trash/${id}`, { token })).status).toBe(404);
    }
  });

  it('a purge whose purge of an entry deleted earlier fails stops, and a repeat finishes both', async () => {
    const parent = (await createNode(api, token, folder(environmentId, 'Purged in two goes')))
      .nodeId as string;
    const earlier = (await createNode(api, token, urlDocument(parent, 'Deleted first, purged second')))
      .nodeId as string;
    expect((await remove(earlier)).status).toBe(200);
    expect((await remove(parent)).status).toBe(200);
    // The purge of the entry deleted earlier cannot begin: DynamoDB throttles it past the SDK's 3 attempts.
    session.ctx.stack.dynamoDb.injectFault(
      'TransactWriteItems',
      'throttle',
      3,
      (request) => request.includes('purgeStartedAt') && request.includes(`NODE#${earlier}`),
    );
    const cut = await api.call('DELETE', `/api/v1/trash/${parent}`, { token });
    expect(cut.status, cut.text).toBe(503);
    expect((await trash()).map((entry) => entry.nodeId)).toEqual(expect.arrayContaining([parent, earlier]));
    const again = await api.call('DELETE', `/api/v1/trash/${parent}`, { token });
    expect(again.status, again.text).toBe(204);
    const listed = (await trash()).map((entry) => entry.nodeId);
    expect(listed).not.toContain(parent);
    expect(listed).not.toContain(earlier);
  });

  it('an entry left in the trash under a parent purged without it says it can only be purged, and can be', async () => {
    const parent = (await createNode(api, token, folder(environmentId, 'Purged by an earlier version')))
      .nodeId as string;
    const earlier = (await createNode(api, token, urlDocument(parent, 'Left behind'))).nodeId as string;
    expect((await remove(earlier)).status).toBe(200);
    expect((await remove(parent)).status).toBe(200);
    // As a purge made before purges took such entries along left it: the parent's working copy gone.
    const { client, TableName } = tableClient(session.ctx.stack);
    await client.send(new DeleteCommand({ TableName, Key: { PK: `NODE#${parent}`, SK: 'DRAFT' } }));
    const refused = await restore(earlier);
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body).toMatchObject({ code: 'PARENT_PURGED', parentId: parent });
    expect((await api.call('DELETE', `/api/v1/trash/${earlier}`, { token })).status).toBe(204);
    expect((await trash()).map((entry) => entry.nodeId)).not.toContain(earlier);
  });

  it('leaves restoring and purging an environment to system administrators, as deleting one', async () => {
    const doomed = (
      await createNode(api, token, { '@type': 'NodeElement', nodeType: 'ENVIRONMENT', name: 'Doomed' })
    ).nodeId as string;
    const adminId = await createUser(api, token, 'doomed-admin');
    await grant(api, token, doomed, adminId, 'ENVIRONMENT_ADMIN');
    const environmentAdmin = await api.login('doomed-admin', PASSWORD);
    expect((await remove(doomed)).status).toBe(200);
    // Not listed for the environment admin, who may not act on it; listed for the system administrator.
    expect((await trash(environmentAdmin)).map((entry) => entry.nodeId)).not.toContain(doomed);
    expect((await trash()).map((entry) => entry.nodeId)).toContain(doomed);
    expect((await restore(doomed, environmentAdmin)).status).toBe(403);
    const purge = await api.call('DELETE', `/api/v1/trash/${doomed}`, { token: environmentAdmin });
    expect(purge.status).toBe(403);
    // Still in the trash, and the system administrator brings it back.
    expect((await restore(doomed)).status).toBe(200);
    expect((await api.call('GET', `/api/v1/items/${doomed}`, { token })).status).toBe(200);
  });

  it('a restored published object is its next draft, its published copy is as it was, and its history whole', async () => {
    const parent = (await createNode(api, token, folder(environmentId, 'Published then deleted'))).nodeId;
    const document = await createNode(api, token, urlDocument(parent, 'Policy'));
    const published = await api.call('POST', `/api/v1/items/${document.nodeId}/publish`, {
      token,
      body: { nodeVersionId: document.nodeVersionId },
    });
    expect(published.status, published.text).toBe(200);
    const [deleted] = (await remove(document.nodeId)).body as { nodeVersionId: string; version: string }[];
    expect((await restore(document.nodeId)).status).toBe(200);

    // The version the delete answered stays readable, between the published one and the restored draft.
    const history = await api.call('GET', `/api/v1/items/${document.nodeId}/versions`, { token });
    expect((history.body.results as { version: string }[]).map((v) => v.version)).toEqual([
      '1.0002',
      '1.0001',
      '1.0000',
      '0.0001',
    ]);
    const asDeleted = await api.call(
      'GET',
      `/api/v1/items/${document.nodeId}/versions/${deleted?.nodeVersionId}`,
      { token },
    );
    expect(asDeleted.status, asDeleted.text).toBe(200);
    expect(asDeleted.body).toMatchObject({ version: deleted?.version, deleted: true, name: 'Policy' });

    const draft = (await api.call('GET', `/api/v1/items/${document.nodeId}`, { token })).body;
    expect(draft).toMatchObject({ version: '1.0002', nodeStatus: 'IN_PROGRESS' });
    expect(draft.publishedNodeVersionId).not.toBe(draft.nodeVersionId);
    const publishedCopy = (await api.call('GET', `/api/v1/items/${document.nodeId}?draft=false`, { token }))
      .body;
    expect(publishedCopy).toMatchObject({ version: '1.0000', nodeStatus: 'PUBLISHED', name: 'Policy' });
    expect(publishedCopy.nodeVersionId).toBe(publishedCopy.publishedNodeVersionId);
    const byStatus = async (status: string) =>
      (await api.call('GET', `/api/v1/list/${parent}?nodeStatus=${status}`, { token })).body.totalRecords;
    expect([await byStatus('PUBLISHED'), await byStatus('IN_PROGRESS')]).toEqual([0, 1]);
  });

  it('a task restored into a process that holds 1,500 tasks again is refused, and nothing comes back', async () => {
    const processes = (await createNode(api, token, processFolder(environmentId, 'Full processes'))).nodeId;
    const process = (await createNode(api, token, processIn(processes, 'Full'))).nodeId as string;
    const addTasks = async (count: number, prefix: string) => {
      const specs = Array.from({ length: count }, (_, i) => ({ editId: `${prefix}${i}` }));
      const added = await api.call('POST', `/api/v1/process/nodes?process=${process}`, {
        token,
        body: taskNodes(specs),
      });
      expect(added.status, added.text.slice(0, 300)).toBe(200);
      return added.body as { nodeId: string }[];
    };
    const [first] = await addTasks(1000, 'a');
    await addTasks(500, 'b');
    const deleted = (first as { nodeId: string }).nodeId;
    expect((await remove(deleted)).status).toBe(200);
    await addTasks(1, 'c');

    const refused = await restore(deleted);
    expect([refused.status, refused.body.code]).toEqual([409, 'TOO_MANY_TASKS']);
    expect((await api.call('GET', `/api/v1/items/${deleted}`, { token })).status).toBe(404);
    expect(await childrenTotal(process)).toBe(1500);
    expect((await trash()).map((e) => e.nodeId)).toContain(deleted);

    // A process restored with its own 1,500 tasks is not past the limit.
    expect((await remove(process)).status).toBe(200);
    const back = await restore(process);
    expect(back.status, back.text.slice(0, 300)).toBe(200);
    expect(await childrenTotal(process)).toBe(1500);
  });

  it('a task whose edges would take its process past 3,000 edges again is not restored', async () => {
    const processes = (await createNode(api, token, processFolder(environmentId, 'Edged processes'))).nodeId;
    const process = (await createNode(api, token, processIn(processes, 'Edged'))).nodeId as string;
    /** A task with `count` edges from itself to itself. */
    const addLooped = async (editId: string, count: number) => {
      const [task] = taskNodes([{ editId, edges: Array.from({ length: count }, () => ({ to: editId })) }]);
      const added = await api.call('POST', `/api/v1/process/nodes?process=${process}`, {
        token,
        body: [task],
      });
      expect(added.status, added.text.slice(0, 300)).toBe(200);
      return added.body[0].nodeId as string;
    };
    const edges = async () =>
      (await api.call('GET', `/api/v1/process/processes/${process}`, { token })).body.edges.length as number;
    const deleted = await addLooped('a', 10);
    await addLooped('b', 2000);
    expect((await remove(deleted)).status).toBe(200);
    await addLooped('c', 1000);
    expect(await edges()).toBe(3000);

    const refused = await restore(deleted);
    expect([refused.status, refused.body.code]).toEqual([409, 'TOO_MANY_EDGES']);
    expect((await api.call('GET', `/api/v1/items/${deleted}`, { token })).status).toBe(404);
    expect([await childrenTotal(process), await edges()]).toEqual([2, 3000]);
    expect((await trash()).map((e) => e.nodeId)).toContain(deleted);

    // A process restored with its own 3,000 edges is not past the limit.
    expect((await remove(process)).status).toBe(200);
    const back = await restore(process);
    expect(back.status, back.text.slice(0, 300)).toBe(200);
    expect(await edges()).toBe(3000);
  });

  it('a restore racing a create under the same parent: both land, and the counts are exact', async () => {
    const parent = (await createNode(api, token, folder(environmentId, 'Busy'))).nodeId as string;
    const child = (await createNode(api, token, folder(parent, 'Child'))).nodeId as string;
    await Promise.all(
      Array.from({ length: 5 }, (_, i) => createNode(api, token, urlDocument(child, `C ${i}`))),
    );
    await remove(child);
    const [restored, ...created] = await Promise.all([
      restore(child),
      ...Array.from({ length: 5 }, (_, i) =>
        api.call('POST', '/api/v1/items', { token, body: urlDocument(parent, `Beside ${i}`) }),
      ),
    ]);
    expect([restored.status, ...created.map((c) => c.status)]).toEqual([200, 200, 200, 200, 200, 200]);
    expect(await childrenTotal(parent)).toBe(6);
    expect(await childrenTotal(child)).toBe(5);
  });

  it('purging a folder revokes the roles granted on it and below, from their holders too', async () => {
    const outer = (await createNode(api, token, folder(environmentId, 'Granted then purged'))).nodeId;
    const inner = (await createNode(api, token, folder(outer, 'Granted inside'))).nodeId;
    const holderId = await createUser(api, token, 'purged-grant-holder');
    await grant(api, token, outer, holderId, 'EDITOR');
    await grant(api, token, inner, holderId, 'READER');
    await grant(api, token, environmentId, holderId, 'READER');
    const grantsOfHolder = async () =>
      (await api.call('GET', '/api/v1/admin/users?pageSize=1000', { token })).body.results.find(
        (u: { principalId: string }) => u.principalId === holderId,
      ).grants;
    expect(await grantsOfHolder()).toHaveLength(3);
    await remove(outer);
    // Deleted but restorable: the roles stay, to come back with the folder.
    expect(await grantsOfHolder()).toHaveLength(3);
    expect((await api.call('DELETE', `/api/v1/trash/${outer}`, { token })).status).toBe(204);
    expect(await grantsOfHolder()).toEqual([{ nodeId: environmentId, role: 'READER' }]);
  });

  it('purges a subtree for good, with the files of its documents', async () => {
    const root = (await createNode(api, token, folder(environmentId, 'Purged'))).nodeId as string;
    const query = new URLSearchParams({
      resumableIdentifier: 'purged-file',
      resumableFilename: 'gone.txt',
      resumableChunkSize: '1',
      resumableChunkNumber: '1',
      resumableTotalSize: '1',
    });
    await api.call('POST', `/upload/?${query}`, {
      token,
      rawBody: 'gone',
      headers: { 'content-type': 'text/plain' },
    });
    const document = await createNode(api, token, {
      parent: { nodeId: root },
      '@type': 'Document',
      nodeType: 'DOCUMENT',
      name: 'Gone',
      documentType: 'FILE',
      fileInfo: { uploadIdentifier: 'purged-file', name: 'gone.txt' },
    });
    const stack = session.ctx.stack;
    const fileKey = await stack.run(async () => {
      const { findNode } = await import('#shared/data/node-repository.ts');
      const node = await findNode(document.nodeId);
      const fileInfo = node?.fields.fileInfo as { fileId: string } | undefined;
      if (!fileInfo) throw new Error('the document has no file');
      return `files/${fileInfo.fileId}`;
    });
    await remove(root);
    expect((await api.call('DELETE', `/api/v1/trash/${root}`, { token })).status).toBe(204);
    expect((await restore(root)).status).toBe(404);
    expect((await api.call('GET', `/api/v1/items/${document.nodeId}/versions`, { token })).status).toBe(404);
    const { s3, Bucket } = bucketClient(stack);
    await expect(s3.send(new GetObjectCommand({ Bucket, Key: fileKey }))).rejects.toThrow();
    expect((await trash()).map((e) => e.nodeId)).not.toContain(root);
  });
});

/**
 * Deletes, restores and purges of subtrees larger than one transaction, meeting each other between their
 * commits. The embedded DynamoDB stops one request at a chosen write ('hold') while the other runs whole,
 * so each interleaving is met every time.
 */
describe('the trash under concurrency', () => {
  /** A folder with `count` documents: a delete or restore of it takes several transactions. */
  const bigFolder = async (parentId: string, name: string, count = 120) => {
    const root = (await createNode(api, token, folder(parentId, name))).nodeId as string;
    const documents: { nodeId: string; nodeVersionId: string }[] = [];
    for (let i = 0; i < count; i += 20) {
      documents.push(
        ...(await Promise.all(
          Array.from({ length: Math.min(20, count - i) }, (_, k) =>
            createNode(api, token, urlDocument(root, `${name} ${i + k}`)),
          ),
        )),
      );
    }
    return { root, documents };
  };
  const status = async (nodeId: string) =>
    (await api.call('GET', `/api/v1/items/${nodeId}`, { token })).status;
  /** How many of the documents are live, having checked that none is live under a folder that is not. */
  const liveDocuments = async (parentId: string, documents: { nodeId: string }[]) => {
    const statuses = await Promise.all(documents.map((d) => status(d.nodeId)));
    const live = statuses.filter((s) => s === 200).length;
    if (live > 0)
      expect(await status(parentId), `${live} documents live under a folder that is not`).toBe(200);
    expect(statuses.filter((s) => s !== 200 && s !== 404)).toEqual([]);
    return live;
  };
  const dynamoDb = () => session.ctx.stack.dynamoDb;
  /** A restore of `root` stops once its first commit is in: as it lets creates under `root` again. */
  const restorePausedAfterFirstCommit = async (root: string) => {
    dynamoDb().injectFault(
      'UpdateItem',
      'hold',
      1,
      (request) => request.includes('REMOVE #lease') && request.includes(`NODE#${root}`),
    );
    const restoring = restore(root);
    await dynamoDb().whenHolding();
    // In an object: an async function's answer would wait for the restore.
    return { restoring };
  };

  it('a purge meeting a restore under way is refused, and the restore finishes: nothing live is removed', async () => {
    const { root, documents } = await bigFolder(environmentId, 'Restored while purged');
    expect((await remove(root)).status).toBe(200);

    const { restoring } = await restorePausedAfterFirstCommit(root);
    // The folder and its first documents are live again; the rest are still in the trash.
    expect(await status(root)).toBe(200);
    const purged = await api.call('DELETE', `/api/v1/trash/${root}`, { token });
    dynamoDb().releaseHeld();
    const restored = await restoring;
    expect([restored.status, purged.status], `${restored.body.code} ${purged.body.code}`).toEqual([200, 409]);
    expect(purged.body.code).toBe('RESTORE_UNDER_WAY');
    expect(restored.body).toHaveLength(121);
    expect(await liveDocuments(root, documents)).toBe(120);
    expect(await childrenTotal(root)).toBe(120);
    expect((await trash()).map((e) => e.nodeId)).not.toContain(root);
  });

  it('a restore meeting a purge under way is refused, and the purge finishes', async () => {
    const { root, documents } = await bigFolder(environmentId, 'Purged while restored', 40);
    expect((await remove(root)).status).toBe(200);
    // The purge stops at its first removal of items.
    const ids = [root, ...documents.map((d) => d.nodeId)];
    dynamoDb().injectFault(
      'BatchWriteItem',
      'hold',
      1,
      (request) => request.includes('DeleteRequest') && ids.some((id) => request.includes(`NODE#${id}`)),
    );
    const purging = api.call('DELETE', `/api/v1/trash/${root}`, { token });
    await dynamoDb().whenHolding();
    const restored = await restore(root);
    dynamoDb().releaseHeld();
    const purged = await purging;
    expect([restored.status, purged.status], `${restored.body.code}`).toEqual([409, 204]);
    expect(restored.body.code).toBe('PURGE_UNDER_WAY');
    expect(await liveDocuments(root, documents)).toBe(0);
    expect(await status(root)).toBe(404);
    expect((await trash()).map((e) => e.nodeId)).not.toContain(root);
    expect((await restore(root)).status).toBe(404);
  });
  it('a restore meeting a delete of the parent: what it brought back is deleted with the parent, and restores finish it', async () => {
    const top = (await createNode(api, token, folder(environmentId, 'Deleted during a restore below')))
      .nodeId as string;
    // A folder holding a folder of documents: the restore's first commit brings back both folders and the
    // first documents.
    const root = (await createNode(api, token, folder(top, 'Restored, then deleted with its parent')))
      .nodeId as string;
    const { root: inner, documents } = await bigFolder(root, 'Inner', 100);
    expect((await remove(root)).status).toBe(200);

    const { restoring } = await restorePausedAfterFirstCommit(root);
    expect(await status(inner)).toBe(200);
    const deleted = await remove(top);
    dynamoDb().releaseHeld();
    const restored = await restoring;
    expect([restored.status, deleted.status], restored.body.code).toEqual([409, 200]);
    expect(restored.body.code).toBe('PARENT_DELETED');
    const taken = new Set(deleted.body.map((n: { nodeId: string }) => n.nodeId));
    expect([top, root, inner].every((id) => taken.has(id))).toBe(true);
    // Nothing the restore brought back is live under the deleted folders.
    expect(await liveDocuments(inner, documents)).toBe(0);

    // The parent's restore brings back what its delete took; the folder's, what was still in its trash.
    expect((await restore(top)).status).toBe(200);
    const rest = await restore(root);
    expect(rest.status, rest.text).toBe(200);
    expect(rest.body.length + taken.size).toBe(103);
    expect(await liveDocuments(inner, documents)).toBe(100);
    expect(await childrenTotal(inner)).toBe(100);
    expect(await childrenTotal(top)).toBe(1);
    expect((await trash()).map((e) => e.nodeId)).not.toContain(root);
  });

  it('a restore repeated after a folder it brought back was deleted on its own asks for that folder first, losing nothing', async () => {
    const root = (await createNode(api, token, folder(environmentId, 'Restored in two goes')))
      .nodeId as string;
    const { root: inner, documents } = await bigFolder(root, 'Deleted on its own meanwhile', 100);
    expect((await remove(root)).status).toBe(200);

    const { restoring } = await restorePausedAfterFirstCommit(root);
    expect(await status(inner)).toBe(200);
    expect((await remove(inner)).status).toBe(200);
    dynamoDb().releaseHeld();
    const restored = await restoring;
    expect(restored.status, restored.text).toBe(409);

    // Documents of the first delete still wait below the folder deleted on its own: it comes first.
    const again = await restore(root);
    expect(again.status, again.text).toBe(409);
    expect(again.body).toMatchObject({ code: 'PARENT_DELETED', parentId: inner });
    expect((await trash()).map((e) => e.nodeId)).toEqual(expect.arrayContaining([root, inner]));
    expect((await restore(inner)).status).toBe(200);
    const rest = await restore(root);
    expect(rest.status, rest.text).toBe(200);
    expect(await liveDocuments(inner, documents)).toBe(100);
    expect(await childrenTotal(inner)).toBe(100);
    expect((await trash()).map((e) => e.nodeId)).not.toContain(root);
  });

  it('a restore meeting a delete of its own root again: nothing is left live under it, and a restore brings all back', async () => {
    const { root, documents } = await bigFolder(environmentId, 'Deleted again during its restore', 100);
    expect((await remove(root)).status).toBe(200);

    const { restoring } = await restorePausedAfterFirstCommit(root);
    const deleted = await remove(root);
    dynamoDb().releaseHeld();
    const restored = await restoring;
    expect([restored.status, deleted.status], restored.body.code).toEqual([409, 200]);
    expect(restored.body.code).toBe('PARENT_DELETED');
    expect(await liveDocuments(root, documents)).toBe(0);
    // One entry: the second delete's takes the place of the first's, which its restore could not end.
    expect((await trash()).filter((entry) => entry.nodeId === root)).toHaveLength(1);

    const again = await restore(root);
    expect(again.status, again.text).toBe(200);
    expect(again.body).toHaveLength(101);
    expect(await liveDocuments(root, documents)).toBe(100);
    expect(await childrenTotal(root)).toBe(100);
    expect((await trash()).map((entry) => entry.nodeId)).not.toContain(root);
  });
  it('a delete whose subtree keeps changing starts over as often as it takes, and takes every object', async () => {
    const { root, documents } = await bigFolder(environmentId, 'Changed under three deletes', 100);
    let held = '';
    let saved = new Set<string>();
    /** Holds the delete's next commit: the first commit of its next attempt, which names the saved versions. */
    const holdNextAttempt = (first: boolean) =>
      dynamoDb().injectFault('TransactWriteItems', 'hold', 1, (request) => {
        if (!request.includes(`TRASHED#${root}#`)) return false;
        if (!first && ![...saved].some((version) => request.includes(version))) return false;
        held = request;
        return true;
      });
    holdNextAttempt(true);
    const deleting = remove(root);
    for (let round = 0; round < 3; round++) {
      await dynamoDb().whenHolding();
      // Every document the held commit does not take is saved: the attempt's next commit fails.
      const others = documents.filter((d) => !held.includes(d.nodeId));
      const versions = await Promise.all(
        others.map(async (document) => {
          const read = await api.call('GET', `/api/v1/items/${document.nodeId}`, { token });
          // Deleted by a commit of an attempt before.
          if (read.status === 404) return [];
          const written = await api.call('PUT', `/api/v1/items/${document.nodeId}`, {
            token,
            body: {
              ...urlDocument(root, `Saved in round ${round}`),
              nodeId: document.nodeId,
              nodeVersionId: read.body.nodeVersionId,
            },
          });
          expect(written.status, written.text).toBe(200);
          return [written.body.nodeVersionId as string];
        }),
      );
      saved = new Set(versions.flat());
      if (round < 2) holdNextAttempt(false);
      dynamoDb().releaseHeld();
    }
    const deleted = await deleting;
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.body).toHaveLength(101);
    expect((await trash()).find((e) => e.nodeId === root)?.nodes).toBe(101);
    expect(await liveDocuments(root, documents)).toBe(0);
  });

  it('a delete sent with If-Match that starts over after its root changed finishes, as its first attempt began', async () => {
    const { root } = await bigFolder(environmentId, 'Renamed while deleted');
    const current = (await api.call('GET', `/api/v1/items/${root}`, { token })).body;
    dynamoDb().injectFault('TransactWriteItems', 'hold', 1, (request) =>
      request.includes(`TRASHED#${root}#`),
    );
    const deleting = api.call('DELETE', `/api/v1/items/${root}`, {
      token,
      body: {},
      headers: { 'if-match': `W/"${current.nodeVersionId}"` },
    });
    await dynamoDb().whenHolding();
    // The root changes under the delete: its last commit fails, and the next attempt reads it again.
    const renamed = await api.call('PUT', `/api/v1/items/${root}`, {
      token,
      body: {
        ...folder(environmentId, 'Renamed meanwhile'),
        nodeId: root,
        nodeVersionId: current.nodeVersionId,
      },
    });
    expect(renamed.status, renamed.text).toBe(200);
    dynamoDb().releaseHeld();
    const deleted = await deleting;
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.body).toHaveLength(121);
  });

  it('a delete that starts over after an update of a document counts in the trash every object it took', async () => {
    const { root, documents } = await bigFolder(environmentId, 'Counted after starting over');
    // The delete stops at its first commit (of the deepest objects), with what it plans for the rest.
    let held = '';
    dynamoDb().injectFault('TransactWriteItems', 'hold', 1, (request) => {
      if (!request.includes(`TRASHED#${root}#`)) return false;
      held = request;
      return true;
    });
    const deleting = remove(root);
    await dynamoDb().whenHolding();
    // A document of a later commit changes: that commit fails and the delete starts over from a fresh read.
    const later = documents.find((d) => !held.includes(d.nodeId)) as (typeof documents)[number];
    const updated = await api.call('PUT', `/api/v1/items/${later.nodeId}`, {
      token,
      body: {
        ...urlDocument(root, 'Renamed meanwhile'),
        nodeId: later.nodeId,
        nodeVersionId: later.nodeVersionId,
      },
    });
    expect(updated.status, updated.text).toBe(200);
    dynamoDb().releaseHeld();
    const deleted = await deleting;
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.body).toHaveLength(121);
    expect((await trash()).find((e) => e.nodeId === root)?.nodes).toBe(121);
    const back = await restore(root);
    expect(back.body).toHaveLength(121);
  });
});
