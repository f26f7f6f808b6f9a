/**
 * How many DynamoDB calls a request waits on, one after another, as its log line tells an operator
 * (`dynamoCalls`, `dynamoRoundTrips`). Every request here reads its session (SESSION_RECHECK_SECONDS=0),
 * so each figure is one more than what follows authentication.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNode, defaultEnvironmentId, folder, urlDocument } from './helpers/library.ts';
import { type ApiClient, startTestStack, type TestStack } from './helpers/test-stack.ts';

interface RequestLine {
  operation: string;
  dynamoCalls: number;
  dynamoRoundTrips: number;
}

let ctx: TestStack;
let api: ApiClient;
let admin: string;
let documents: string;
const lines: RequestLine[] = [];
const log = console.log;

beforeAll(async () => {
  console.log = (line: unknown) => {
    if (typeof line !== 'string' || !line.startsWith('{')) return log(line);
    const parsed = JSON.parse(line);
    if ('dynamoRoundTrips' in parsed) lines.push(parsed);
  };
  ctx = await startTestStack({ logLevel: 'info', sessionRecheckSeconds: 0 });
  api = ctx.api;
  admin = await api.login();
  const environment = await defaultEnvironmentId(api, admin);
  documents = (await createNode(api, admin, folder(environment, 'Round trips'))).nodeId;
  for (let i = 0; i < 3; i++) await createNode(api, admin, urlDocument(documents, `Document ${i}`));
});
afterAll(async () => {
  await ctx?.close();
  console.log = log;
});

/** The log line of one request. */
async function lineOf(method: string, path: string, body?: unknown): Promise<RequestLine> {
  const before = lines.length;
  const response = await api.call(method, path, { token: admin, ...(body ? { body } : {}) });
  expect(response.status).toBe(200);
  const line = lines.slice(before).at(-1);
  if (!line) throw new Error(`no request log line for ${method} ${path}`);
  return line;
}

describe('list pages', () => {
  it('a folder’s children: the folder, its counts and the entries together, then the objects', async () => {
    const line = await lineOf('GET', `/api/v1/list/${documents}?pageSize=50`);
    expect(line.dynamoRoundTrips).toBe(3);
  });

  it('everything readable, and one type of it: the roots, then their entries and counts, then the objects with their parents', async () => {
    for (const path of ['/api/v1/list?pageSize=50', '/api/v1/document/list?pageSize=50']) {
      const line = await lineOf('GET', path);
      expect(line.dynamoRoundTrips, path).toBe(4);
    }
  });
});

describe('deletes', () => {
  it('of a document never linked: read it, then one transaction; no relations to settle', async () => {
    const document = await createNode(api, admin, urlDocument(documents, 'Unlinked'));
    const line = await lineOf('DELETE', `/api/v1/items/${document.nodeId}`, {});
    expect(line).toMatchObject({ dynamoCalls: 3, dynamoRoundTrips: 3 });
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
