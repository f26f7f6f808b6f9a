/**
 * How many DynamoDB calls a request waits on, one after another, as its log line tells an operator
 * (`dynamoCalls`, `dynamoRoundTrips`). On the first stack every request reads its session
 * (SESSION_RECHECK_SECONDS=0), so each figure is one more than what follows authentication; the second is
 * a warm instance that remembers sessions and where the readable roots are.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chain,
  createNode,
  defaultEnvironmentId,
  folder,
  processFolder,
  processIn,
  urlDocument,
} from './helpers/library.ts';
import { type ApiClient, startTestStack, type TestStack } from './helpers/test-stack.ts';

interface RequestLine {
  operation: string;
  dynamoCalls: number;
  dynamoRoundTrips: number;
}

let ctx: TestStack;
let warm: TestStack;
let api: ApiClient;
let admin: string;
let warmAdmin: string;
let documents: string;
const lines: RequestLine[] = [];
const log = console.log;

beforeAll(async () => {
  console.log = (line: unknown) => {
    if (typeof line !== 'string' || !line.startsWith('{')) return log(line);
    const parsed = JSON.parse(line);
    if ('dynamoRoundTrips' in parsed) lines.push(parsed);
  };
  [ctx, warm] = await Promise.all([
    startTestStack({ logLevel: 'info', sessionRecheckSeconds: 0 }),
    startTestStack({ logLevel: 'info', sessionRecheckSeconds: 60 }),
  ]);
  api = ctx.api;
  [admin, warmAdmin] = await Promise.all([api.login(), warm.api.login()]);
  const environment = await defaultEnvironmentId(api, admin);
  documents = (await createNode(api, admin, folder(environment, 'Round trips'))).nodeId;
  for (let i = 0; i < 3; i++) await createNode(api, admin, urlDocument(documents, `Document ${i}`));
});
afterAll(async () => {
  await Promise.all([ctx?.close(), warm?.close()]);
  console.log = log;
});

/** The answer to one request and its log line. */
async function call(stack: TestStack, token: string, method: string, path: string, body?: unknown) {
  const before = lines.length;
  const response = await stack.api.call(method, path, { token, ...(body ? { body } : {}) });
  expect(response.status, `${method} ${path}: ${response.text}`).toBe(200);
  const line = lines.slice(before).at(-1);
  if (!line) throw new Error(`no request log line for ${method} ${path}`);
  return { response, line };
}

const lineOf = async (method: string, path: string, body?: unknown) =>
  (await call(ctx, admin, method, path, body)).line;

describe('list pages', () => {
  it('a folder’s children: the folder, its counts and the entries beside the session, then the objects', async () => {
    const line = await lineOf('GET', `/api/v1/list/${documents}?pageSize=50`);
    expect(line.dynamoRoundTrips).toBe(2);
    // A page by number first counts the entries before it (one more read, beside the session too).
    const second = await lineOf('GET', `/api/v1/list/${documents}?pageSize=2&currentPage=2`);
    expect(second.dynamoRoundTrips).toBe(3);
  });

  it('a folder’s children as published: its published copy, if it has one, read beside the objects', async () => {
    const publishedChild = async (name: string, withFolder: boolean) => {
      const parent = await createNode(api, admin, folder(documents, name));
      const child = await createNode(api, admin, urlDocument(parent.nodeId, `${name}: a child`));
      const [id, version] = withFolder
        ? [parent.nodeId, parent.nodeVersionId]
        : [child.nodeId, child.nodeVersionId];
      await call(ctx, admin, 'POST', `/api/v1/items/${id}/publish?recursive=true`, {
        nodeVersionId: version,
      });
      return lineOf('GET', `/api/v1/list/${parent.nodeId}?pageSize=50&draft=false`);
    };
    const [unpublishedFolder, publishedFolder] = [
      await publishedChild('Never published', false),
      await publishedChild('Published with its child', true),
    ];
    expect(publishedFolder.dynamoCalls).toBe(unpublishedFolder.dynamoCalls + 1);
    expect(publishedFolder.dynamoRoundTrips).toBe(unpublishedFolder.dynamoRoundTrips);
  });

  it('everything readable, and one type of it: the roots, then their entries and counts, then the objects with their parents', async () => {
    for (const path of ['/api/v1/list?pageSize=50', '/api/v1/document/list?pageSize=50']) {
      const line = await lineOf('GET', path);
      expect(line.dynamoRoundTrips, path).toBe(4);
    }
  });
});

describe('retrieves', () => {
  it('read the object beside the session: two calls, one round trip', async () => {
    const document = await createNode(api, admin, urlDocument(documents, 'Retrieved'));
    expect(await lineOf('GET', `/api/v1/items/${document.nodeId}`)).toMatchObject({
      dynamoCalls: 2,
      dynamoRoundTrips: 1,
    });
    // A per-type retrieve then reads the parent, children and relations the object names: one more.
    const typed = await lineOf('GET', `/api/v1/document/documents/${document.nodeId}`);
    expect(typed.dynamoRoundTrips).toBe(2);
  });

  it('read nothing without a valid token, and answer nothing read for an ended session', async () => {
    const document = await createNode(api, admin, urlDocument(documents, 'Not for strangers'));
    const before = lines.length;
    const anonymous = await api.call('GET', `/api/v1/items/${document.nodeId}`);
    expect(anonymous.status).toBe(401);
    expect(lines.slice(before).at(-1)?.dynamoCalls).toBe(0);

    const ended = await api.login();
    expect((await api.call('POST', '/api/v1/logout', { token: ended })).status).toBe(204);
    const afterLogout = await api.call('GET', `/api/v1/items/${document.nodeId}`, { token: ended });
    expect(afterLogout.status).toBe(401);
    // The problem names the path asked for, nothing of the object.
    expect(afterLogout.text).not.toContain('Not for strangers');
  });
});

describe('the caller’s own user', () => {
  it('reads the user record beside the session: two calls, one round trip', async () => {
    expect(await lineOf('GET', '/api/v1/users/me')).toMatchObject({ dynamoCalls: 2, dynamoRoundTrips: 1 });
  });
});

describe('creates', () => {
  it('read the parent beside the session, then one transaction', async () => {
    const line = await lineOf('POST', '/api/v1/items', urlDocument(documents, 'Created'));
    expect(line).toMatchObject({ dynamoCalls: 3, dynamoRoundTrips: 2 });
  });
});

describe('updates', () => {
  it('read the working copy beside the session, then keep the version replaced, then write', async () => {
    const document = await createNode(api, admin, urlDocument(documents, 'Updated'));
    const line = await lineOf('PUT', `/api/v1/items/${document.nodeId}`, {
      ...document,
      name: 'Updated again',
    });
    expect(line).toMatchObject({ dynamoCalls: 4, dynamoRoundTrips: 3 });
  });
});

describe('deletes', () => {
  it('of a document never linked: read it beside the session, then one transaction with the version it ends kept beside it; no relations to settle', async () => {
    const document = await createNode(api, admin, urlDocument(documents, 'Unlinked'));
    const line = await lineOf('DELETE', `/api/v1/items/${document.nodeId}`, {});
    expect(line).toMatchObject({ dynamoCalls: 4, dynamoRoundTrips: 2 });
  });

  it('of a linked document: its relations are read and settled after the transaction', async () => {
    const document = await createNode(api, admin, urlDocument(documents, 'Linked'));
    const other = await createNode(api, admin, urlDocument(documents, 'Other end'));
    const link = await api.call(
      'PUT',
      `/api/v1/items/${document.nodeId}/relations/relatesTo/${other.nodeId}`,
      {
        token: admin,
      },
    );
    expect(link.status).toBeLessThan(300);
    const line = await lineOf('DELETE', `/api/v1/items/${document.nodeId}`, {});
    expect(line.dynamoCalls).toBeGreaterThan(3);
  });
});

describe('restores', () => {
  it('of a process read the edges it kept once, however many of its tasks come back', async () => {
    const calls = async (tasks: number) => {
      const environment = await defaultEnvironmentId(api, admin);
      const processes = await createNode(api, admin, processFolder(environment, `Restored ${tasks}`));
      const process = await createNode(api, admin, processIn(processes.nodeId, `Restored ${tasks}`));
      await call(ctx, admin, 'POST', `/api/v1/process/nodes?process=${process.nodeId}`, chain(tasks));
      await call(ctx, admin, 'DELETE', `/api/v1/items/${process.nodeId}`, {});
      return (await call(ctx, admin, 'POST', `/api/v1/items/${process.nodeId}/restore`)).line.dynamoCalls;
    };
    const [few, many] = [await calls(2), await calls(20)];
    // Each of 18 tasks more takes two calls (the copy its delete left kept in its history, and its own
    // bookkeeping), not a third to read the process's kept edges again.
    expect(many - few).toBeLessThan(3 * 18);
  });
});

describe('uploads', () => {
  const chunkBytes = 1024;
  const query = (chunkNumber: number) =>
    new URLSearchParams({
      resumableIdentifier: 'round-trips-upload',
      resumableFilename: 'round-trips.bin',
      resumableChunkNumber: String(chunkNumber),
      resumableChunkSize: String(chunkBytes),
      resumableTotalSize: String(chunkBytes * 3),
      resumableTotalChunks: '3',
    });
  /** The log line of one upload request that answered `status`. */
  const uploadLine = async (method: string, path: string, status: number, rawBody?: Buffer) => {
    const before = lines.length;
    const response = await api.call(method, path, {
      token: admin,
      ...(rawBody ? { rawBody, headers: { 'content-type': 'application/octet-stream' } } : {}),
    });
    expect(response.status, `${method} ${path}: ${response.text}`).toBe(status);
    const line = lines.slice(before).at(-1);
    if (!line) throw new Error(`no request log line for ${method} ${path}`);
    return line;
  };

  it('read the caller’s upload record beside the session: a chunk, a chunk test, the upload’s state', async () => {
    await uploadLine('POST', `/upload/?${query(1)}`, 200, Buffer.alloc(chunkBytes, 1));
    // A later chunk: the record beside the session, then its receipt after the chunk is stored.
    const chunk = await uploadLine('POST', `/upload/?${query(2)}`, 200, Buffer.alloc(chunkBytes, 2));
    expect(chunk).toMatchObject({ dynamoCalls: 3, dynamoRoundTrips: 2 });
    // resumable.js's test before each chunk, one stored and one not: one round trip each.
    expect(await uploadLine('GET', `/upload/?${query(2)}`, 200)).toMatchObject({
      dynamoCalls: 2,
      dynamoRoundTrips: 1,
    });
    expect(await uploadLine('GET', `/upload/?${query(3)}`, 204)).toMatchObject({
      dynamoCalls: 2,
      dynamoRoundTrips: 1,
    });
    expect(await uploadLine('GET', '/api/v1/uploads/round-trips-upload', 200)).toMatchObject({
      dynamoCalls: 2,
      dynamoRoundTrips: 1,
    });
  });
});

describe('a warm instance', () => {
  const environmentPayload = (name: string) => ({ '@type': 'NodeElement', nodeType: 'ENVIRONMENT', name });

  it('answers a list page in two round trips: the partitions with the roots, then the objects', async () => {
    await call(warm, warmAdmin, 'GET', '/api/v1/list?pageSize=50');
    const { line } = await call(warm, warmAdmin, 'GET', '/api/v1/list?pageSize=50');
    expect(line.dynamoRoundTrips).toBe(2);
  });

  it('lists an environment created here at once, and leaves one deleted out of the page and the total', async () => {
    const before = (await call(warm, warmAdmin, 'GET', '/api/v1/list?pageSize=1000')).response.body;
    const created = await createNode(warm.api, warmAdmin, environmentPayload('Round trips elsewhere'));
    const inside = await createNode(warm.api, warmAdmin, folder(created.nodeId, 'Inside'));
    const after = (await call(warm, warmAdmin, 'GET', '/api/v1/list?pageSize=1000')).response.body;
    const ids = after.results.map((r: { nodeId: string }) => r.nodeId);
    expect(ids).toEqual(expect.arrayContaining([created.nodeId, inside.nodeId]));
    expect(after.totalRecords).toBeGreaterThan(before.totalRecords);

    await call(warm, warmAdmin, 'DELETE', `/api/v1/items/${created.nodeId}`, {});
    const gone = (await call(warm, warmAdmin, 'GET', '/api/v1/list?pageSize=1000')).response.body;
    const left = gone.results.map((r: { nodeId: string }) => r.nodeId);
    expect(left).not.toContain(created.nodeId);
    expect(left).not.toContain(inside.nodeId);
    expect(gone.totalRecords).toBe(before.totalRecords);
  });
});
