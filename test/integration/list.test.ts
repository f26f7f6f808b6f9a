import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNode } from './helpers/library.ts';
import { type ApiClient, startTestStack, type TestStack } from './helpers/test-stack.ts';

let ctx: TestStack;
let api: ApiClient;
let token: string;

beforeAll(async () => {
  ctx = await startTestStack();
  api = ctx.api;
  token = await api.login();
  for (const name of ['Finance', 'Operations', 'Legal']) {
    await createNode(api, token, {
      '@type': 'NodeElement',
      nodeType: 'ENVIRONMENT',
      name,
      richTextDescription: `<p>The <b>${name}</b> area &amp; its rules</p>`,
    });
  }
});
afterAll(() => ctx.close());

describe('GET /api/v1/list?nodeType=ENVIRONMENT', () => {
  it('answers a spec §2.4 list page of ListElements sorted by nodeId', async () => {
    const response = await api.call('GET', '/api/v1/list?nodeType=ENVIRONMENT', { token });
    expect(response.status).toBe(200);
    const page = response.body;
    expect(page).toMatchObject({
      totalRecords: 4,
      sortKey: 'nodeId',
      order: 'ASC',
      pageSize: 50,
      currentPage: 1,
    });
    const ids = page.results.map((e: { nodeId: string }) => e.nodeId);
    expect(ids).toEqual([...ids].sort());
    const finance = page.results.find((e: { name: string }) => e.name === 'Finance');
    expect(finance).toMatchObject({
      '@type': 'ListElement',
      nodeType: 'ENVIRONMENT',
      parent: null,
      documentCount: 0,
      responsibilities: { informed: false, accountable: false },
      hasDescription: true,
      shortDescription: 'The Finance area & its rules',
      lastModifiedByName: 'admin',
      version: '0.0001',
    });
  });

  it('pages with pageSize and currentPage', async () => {
    const first = await api.call('GET', '/api/v1/list?nodeType=ENVIRONMENT&pageSize=3&currentPage=1', {
      token,
    });
    const second = await api.call('GET', '/api/v1/list?nodeType=ENVIRONMENT&pageSize=3&currentPage=2', {
      token,
    });
    const past = await api.call('GET', '/api/v1/list?nodeType=ENVIRONMENT&pageSize=3&currentPage=3', {
      token,
    });
    expect(first.body.results).toHaveLength(3);
    expect(second.body.results).toHaveLength(1);
    expect(past.body.results).toHaveLength(0);
    expect(past.body.totalRecords).toBe(4);
    const all = [...first.body.results, ...second.body.results].map((e: { nodeId: string }) => e.nodeId);
    expect(new Set(all).size).toBe(4);
  });

  it('draft=false lists published environments only (none are published yet)', async () => {
    const response = await api.call('GET', '/api/v1/list?nodeType=ENVIRONMENT&draft=false', { token });
    expect(response.body).toMatchObject({ totalRecords: 0, results: [] });
  });

  it('refuses other node types and unknown parameters, naming them', async () => {
    const other = await api.call('GET', '/api/v1/list?nodeType=DOCUMENT', { token });
    expect(other.status).toBe(400);
    expect(other.body.errors[0]).toMatchObject({ in: 'query', path: '$.nodeType' });
    const unknown = await api.call('GET', '/api/v1/list?nodeType=ENVIRONMENT&sortBy=name', { token });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0]).toMatchObject({ path: '$.sortBy', rule: 'unrecognized_key' });
  });
});
