import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TYPED_LISTS } from '#shared/domain/typed-lists.ts';
import { createNode, createOfType, folder, urlDocument } from './helpers/library.ts';
import { createUser, grant, PASSWORD } from './helpers/personas.ts';
import { type ApiClient, startTestStack, type TestStack } from './helpers/test-stack.ts';

interface Element {
  nodeId: string;
  name: string;
  nodeType: string;
  creationDate: string;
  modificationDate: string;
  parent: { nodeId: string; name: string; nodeType: string } | null;
}

let ctx: TestStack;
let api: ApiClient;
let admin: string;
let reader: string;
let envL: string;
let envM: string;
let docsFolder: string;
/** The documents of the Docs folder, as created. */
let docs: Element[];

const NAMES = ['Beta', 'alpha', 'Alpha', 'Gamma', 'beta', 'Delta', 'Alpha'];

async function list(path: string, token = admin) {
  const response = await api.call('GET', path, { token });
  if (response.status !== 200) throw new Error(`${path}: ${response.status} ${response.text}`);
  return response.body as {
    totalRecords: number;
    totalRecordsExact: boolean;
    currentPage: number;
    results: Element[];
    nextCursor: string | null;
  };
}

const ids = (elements: { nodeId: string }[]) => elements.map((e) => e.nodeId);

beforeAll(async () => {
  ctx = await startTestStack();
  api = ctx.api;
  admin = await api.login();
  envL = (await createNode(api, admin, { '@type': 'NodeElement', nodeType: 'ENVIRONMENT', name: 'Lists' }))
    .nodeId;
  envM = (await createNode(api, admin, { '@type': 'NodeElement', nodeType: 'ENVIRONMENT', name: 'Other' }))
    .nodeId;
  docsFolder = (await createNode(api, admin, folder(envL, 'Docs'))).nodeId;
  docs = [];
  for (const name of NAMES) docs.push(await createNode(api, admin, urlDocument(docsFolder, name)));
  await createOfType(api, admin, envL, 'TERM', 'Ledger');
  await createOfType(api, admin, envL, 'ROLE', 'Clerk');
  await createOfType(api, admin, envM, 'TERM', 'Elsewhere');
  const readerId = await createUser(api, admin, 'lists-reader');
  await grant(api, admin, envL, readerId, 'READER');
  reader = await api.login('lists-reader', PASSWORD);
});
afterAll(() => ctx.close());

describe('list pages (spec §2.4)', () => {
  it('answers /list/{nodeId} with every ListElement field, the parent named and typed', async () => {
    const page = await list(`/api/v1/list/${docsFolder}`);
    expect(page).toMatchObject({ totalRecords: 7, totalRecordsExact: true, sortKey: 'nodeId', order: 'ASC' });
    expect(page).toMatchObject({ pageSize: 50, currentPage: 1, nextCursor: null });
    expect(ids(page.results)).toEqual(ids(docs).sort());
    expect(page.results[0]).toMatchObject({
      '@type': 'ListElement',
      nodeType: 'DOCUMENT',
      parent: { nodeId: docsFolder, name: 'Docs', nodeType: 'DOCUMENT_SET' },
      documentCount: 0,
      resourceCount: 0,
      responsibilities: { informed: false, accountable: false, support: false },
      hasDescription: false,
      shortDescription: null,
      lastModifiedByName: 'admin',
      deleted: false,
    });
  });

  it('answers every per-type path of §4.7 with that facet’s objects', async () => {
    for (const typed of TYPED_LISTS) {
      const page = await list(`/api/v1${typed.path}`);
      expect(page.currentPage, typed.path).toBe(1);
      if (typed.kind === 'maturity') continue;
      for (const element of page.results) expect(typed.nodeTypes, typed.path).toContain(element.nodeType);
    }
    const glossary = await list('/api/v1/glossary/list');
    expect(glossary.results.map((e) => e.name).sort()).toEqual(['Elsewhere', 'Ledger']);
    expect(glossary.totalRecords).toBe(2);
    const documents = await list('/api/v1/document/list?pageSize=3');
    expect(documents.totalRecords).toBe(7);
    expect(documents.results).toHaveLength(3);
  });

  it('lists everything readable with /list, environments and system roots included', async () => {
    const page = await list('/api/v1/list?pageSize=1000');
    const types = new Set(page.results.map((e) => e.nodeType));
    for (const type of ['ENVIRONMENT', 'GLOSSARY_ROOT', 'DOCUMENT_SET', 'DOCUMENT', 'TERM', 'ROLE']) {
      expect(types).toContain(type);
    }
    expect(page.totalRecords).toBe(page.results.length);
    expect(ids(page.results)).toEqual(ids(page.results).sort());
  });
});

describe('paging', () => {
  const path = () => `/api/v1/list/${docsFolder}`;

  it('cuts pages by pageSize and currentPage, with a short last page and an empty one past the end', async () => {
    const all = ids(docs).sort();
    const pages = [];
    for (const currentPage of [1, 2, 3, 4])
      pages.push(await list(`${path()}?pageSize=3&currentPage=${currentPage}`));
    expect(pages.map((p) => ids(p.results))).toEqual([all.slice(0, 3), all.slice(3, 6), all.slice(6), []]);
    expect(pages.map((p) => p.totalRecords)).toEqual([7, 7, 7, 7]);
    expect(pages[2]?.nextCursor).toBeNull();
    expect(pages[3]?.nextCursor).toBeNull();
  });

  it('pages by number show what the cursor walk shows, in each order (the pages before are counted, not read)', async () => {
    for (const query of [
      'sortKey=name&order=DESC',
      'sortKey=creationDate&order=ASC',
      'sortKey=nodeId&order=DESC',
    ]) {
      const walked: string[] = [];
      let next: string | null = `${path()}?pageSize=2&${query}`;
      while (next) {
        const page = await list(next);
        walked.push(...ids(page.results));
        next = page.nextCursor ? `${path()}?pageSize=2&${query}&cursor=${page.nextCursor}` : null;
      }
      const byNumber: string[] = [];
      for (const currentPage of [1, 2, 3, 4, 5]) {
        const page = await list(`${path()}?pageSize=2&${query}&currentPage=${currentPage}`);
        expect(page.totalRecords).toBe(7);
        byNumber.push(...ids(page.results));
      }
      expect(byNumber, query).toEqual(walked);
    }
  });

  it('walks one object per page with pageSize=1 and the cursor', async () => {
    const walked: string[] = [];
    let next: string | null = `${path()}?pageSize=1`;
    let pageNumbers: number[] = [];
    while (next) {
      const page = await list(next);
      walked.push(...ids(page.results));
      pageNumbers = [...pageNumbers, page.currentPage];
      next = page.nextCursor ? `${path()}?pageSize=1&cursor=${page.nextCursor}` : null;
    }
    expect(walked).toEqual(ids(docs).sort());
    expect(pageNumbers).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('returns every object exactly once to a cursor walk while other objects are created', async () => {
    const walkFolder = (await createNode(api, admin, folder(envL, 'Walk'))).nodeId;
    const before: string[] = [];
    for (let i = 0; i < 12; i++)
      before.push((await createNode(api, admin, urlDocument(walkFolder, `Walk ${i}`))).nodeId);
    const seen: string[] = [];
    const createdDuring: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = `/api/v1/list/${walkFolder}?pageSize=4${cursor ? `&cursor=${cursor}` : ''}`;
      const page = await list(query);
      seen.push(...ids(page.results));
      // Each page is followed by two new objects, sorting anywhere (random ids).
      for (let i = 0; i < 2 && createdDuring.length < 6; i++) {
        createdDuring.push((await createNode(api, admin, urlDocument(walkFolder, 'During'))).nodeId);
      }
      cursor = page.nextCursor;
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    for (const id of before) expect(seen).toContain(id);
    expect(seen.every((id) => before.includes(id) || createdDuring.includes(id))).toBe(true);
  });
});

describe('sorting', () => {
  const expected = (key: 'name' | 'creationDate' | 'modificationDate' | 'nodeId', order: 'ASC' | 'DESC') => {
    const value = (e: Element) => (key === 'name' ? e.name.toLowerCase() : e[key]);
    const sorted = [...docs].sort((a, b) =>
      value(a) < value(b) ? -1 : value(a) > value(b) ? 1 : a.nodeId < b.nodeId ? -1 : 1,
    );
    return ids(order === 'ASC' ? sorted : sorted.reverse());
  };

  it('sorts by each sort key in both orders, ties broken by nodeId', async () => {
    for (const sortKey of ['nodeId', 'name', 'creationDate', 'modificationDate'] as const) {
      for (const order of ['ASC', 'DESC'] as const) {
        const page = await list(`/api/v1/list/${docsFolder}?sortKey=${sortKey}&order=${order}`);
        expect(ids(page.results), `${sortKey} ${order}`).toEqual(expected(sortKey, order));
        expect(page).toMatchObject({ sortKey, order });
      }
    }
    // Three objects are named alpha in some case: they sit together, by nodeId.
    const byName = await list(`/api/v1/list/${docsFolder}?sortKey=name`);
    expect(byName.results.slice(0, 3).map((e) => e.name.toLowerCase())).toEqual(['alpha', 'alpha', 'alpha']);
  });

  it('keeps the sort order across cursor pages, in both directions', async () => {
    for (const order of ['ASC', 'DESC'] as const) {
      const walked: string[] = [];
      let cursor: string | null = null;
      do {
        const query: string = `/api/v1/list/${docsFolder}?sortKey=name&order=${order}&pageSize=2${cursor ? `&cursor=${cursor}` : ''}`;
        const page = await list(query);
        walked.push(...ids(page.results));
        cursor = page.nextCursor;
      } while (cursor);
      expect(walked).toEqual(expected('name', order));
    }
  });
});

describe('filters', () => {
  it('filters by nodeType (repeatable) across everything readable', async () => {
    const terms = await list('/api/v1/list?nodeType=TERM');
    expect(terms.results.map((e) => e.name).sort()).toEqual(['Elsewhere', 'Ledger']);
    expect(terms).toMatchObject({ totalRecords: 2, totalRecordsExact: true });
    const both = await list('/api/v1/list?nodeType=TERM&nodeType=ROLE&sortKey=name');
    expect(both.results.map((e) => e.name)).toEqual(['Clerk', 'Elsewhere', 'Ledger']);
    expect(both.totalRecords).toBe(3);
    const roles = await list('/api/v1/organization/list?nodeType=ROLE');
    expect(roles.results.map((e) => e.name)).toEqual(['Clerk']);
  });

  it('filters by name (case-insensitive, contained) and by nodeStatus', async () => {
    const alpha = await list(`/api/v1/list/${docsFolder}?name=LPH`);
    expect(alpha.results.map((e) => e.name).sort()).toEqual(['Alpha', 'Alpha', 'alpha']);
    expect(alpha).toMatchObject({ totalRecords: 3, totalRecordsExact: true });
    const firstOfTwo = await list(`/api/v1/list/${docsFolder}?name=alpha&pageSize=2`);
    expect(firstOfTwo.totalRecordsExact).toBe(false);
    expect(firstOfTwo.nextCursor).not.toBeNull();
    // Its last page, reached by the cursor as by the page number, knows the total exactly.
    for (const last of [
      await list(`/api/v1/list/${docsFolder}?name=alpha&pageSize=2&cursor=${firstOfTwo.nextCursor}`),
      await list(`/api/v1/list/${docsFolder}?name=alpha&pageSize=2&currentPage=2`),
    ]) {
      expect(last).toMatchObject({ totalRecords: 3, totalRecordsExact: true, nextCursor: null });
      expect(last.results).toHaveLength(1);
    }
    const inProgress = await list(`/api/v1/list/${docsFolder}?nodeStatus=IN_PROGRESS`);
    expect(inProgress.totalRecords).toBe(7);
    const published = await list(`/api/v1/list/${docsFolder}?nodeStatus=PUBLISHED`);
    expect(published).toMatchObject({ totalRecords: 0, results: [] });
  });

  it('filters by modifiedSince, with any sort key', async () => {
    const [first, ...rest] = docs;
    if (!first) throw new Error('no documents');
    const current = (await api.call('GET', `/api/v1/items/${first.nodeId}?detail=true`, { token: admin }))
      .body;
    const since = new Date(Date.now() + 5).toISOString();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const updated = await api.call('PUT', `/api/v1/items/${first.nodeId}`, {
      token: admin,
      body: { ...current, '@type': 'Document', richTextDescription: '<p>Changed</p>' },
    });
    expect(updated.status).toBe(200);
    for (const sortKey of ['modificationDate', 'name']) {
      const page = await list(
        `/api/v1/list/${docsFolder}?modifiedSince=${encodeURIComponent(since)}&sortKey=${sortKey}`,
      );
      expect(ids(page.results), sortKey).toEqual([first.nodeId]);
      expect(page.results[0]).toMatchObject({ hasDescription: true, shortDescription: 'Changed' });
    }
    expect(rest.length).toBe(6);
  });

  it('draft=false lists only published objects (none are)', async () => {
    const page = await list(`/api/v1/list/${docsFolder}?draft=false`);
    expect(page).toMatchObject({ totalRecords: 0, results: [] });
  });
});

describe('deleted objects', () => {
  it('leaves deleted objects and their subtrees out of every list and total', async () => {
    const doomed = (await createNode(api, admin, folder(envL, 'Doomed'))).nodeId;
    const inside = (await createNode(api, admin, urlDocument(doomed, 'Inside'))).nodeId;
    const beforeTotal = (await list('/api/v1/document/list')).totalRecords;
    const deleted = await api.call('DELETE', `/api/v1/items/${doomed}`, { token: admin, body: {} });
    expect(deleted.status).toBe(200);
    const everything = await list('/api/v1/list?pageSize=1000');
    expect(ids(everything.results)).not.toContain(doomed);
    expect(ids(everything.results)).not.toContain(inside);
    expect(everything.totalRecords).toBe(everything.results.length);
    const documents = await list('/api/v1/document/list?pageSize=1000');
    expect(documents.totalRecords).toBe(beforeTotal - 1);
    expect(ids(documents.results)).not.toContain(inside);
    const children = await api.call('GET', `/api/v1/list/${doomed}`, { token: admin });
    expect(children.status).toBe(404);
  });
});

describe('totals after a delete that takes several transactions', () => {
  it('counts a deleted folder of 60 documents out of every total', async () => {
    const big = (await createNode(api, admin, folder(envL, 'Sixty'))).nodeId;
    for (let i = 0; i < 60; i++) await createNode(api, admin, urlDocument(big, `Sixty ${i}`));
    const before = {
      documents: (await list('/api/v1/document/list')).totalRecords,
      everything: (await list('/api/v1/list')).totalRecords,
      environment: (await list(`/api/v1/list/${envL}`)).totalRecords,
    };
    expect((await list(`/api/v1/list/${big}`)).totalRecords).toBe(60);
    const deleted = await api.call('DELETE', `/api/v1/items/${big}`, { token: admin, body: {} });
    expect(deleted.body).toHaveLength(61);
    expect((await list('/api/v1/document/list')).totalRecords).toBe(before.documents - 60);
    expect((await list('/api/v1/list')).totalRecords).toBe(before.everything - 61);
    expect((await list(`/api/v1/list/${envL}`)).totalRecords).toBe(before.environment - 1);
  });
});

describe('visibility', () => {
  it('lists only the environment a reader may read, with totals to match', async () => {
    const page = await list('/api/v1/list?pageSize=1000', reader);
    expect(
      new Set(page.results.map((e) => (e.nodeType === 'ENVIRONMENT' ? e.nodeId : null)).filter(Boolean)),
    ).toEqual(new Set([envL]));
    expect(page.results.map((e) => e.name)).not.toContain('Elsewhere');
    expect(page.totalRecords).toBe(page.results.length);
    const glossary = await list('/api/v1/glossary/list', reader);
    expect(glossary.results.map((e) => e.name)).toEqual(['Ledger']);
    expect(glossary.totalRecords).toBe(1);
    const other = await api.call('GET', `/api/v1/list/${envM}`, { token: reader });
    expect(other.status).toBe(404);
  });

  it('lists a folder reader’s folder subtree only', async () => {
    const folderReader = await createUser(api, admin, 'folder-reader');
    await grant(api, admin, docsFolder, folderReader, 'READER');
    const token = await api.login('folder-reader', PASSWORD);
    const page = await list('/api/v1/list?pageSize=1000', token);
    expect(ids(page.results).sort()).toEqual([docsFolder, ...ids(docs)].sort());
    expect(page.totalRecords).toBe(8);
    const documents = await list('/api/v1/document/list', token);
    expect(documents.totalRecords).toBe(7);
  });
});

describe('governance lists', () => {
  it('shows findings on the analyzer list and counts per facet on the maturity list', async () => {
    const analyzer = await list('/api/v1/governance/analyzer-list?nodeType=TERM');
    const ledger = analyzer.results.find((e) => e.name === 'Ledger');
    expect(ledger).toMatchObject({
      '@type': 'ListElement',
      findings: ['NEVER_PUBLISHED', 'NO_DESCRIPTION'],
    });
    const maturity = await list('/api/v1/governance/maturity-list');
    const glossary = maturity.results.find((e) => (e as unknown as { facet: string }).facet === 'glossary');
    expect(glossary).toMatchObject({ total: 2, inProgress: 2, published: 0, publishedShare: 0 });
    // Walked with nextCursor, two rows a page: every facet once, in order, as in one page.
    const facets = (page: { results: unknown[] }) => page.results.map((e) => (e as { facet: string }).facet);
    const walked: string[] = [];
    let page = await list('/api/v1/governance/maturity-list?pageSize=2');
    for (;;) {
      walked.push(...facets(page));
      const next = (page as { nextCursor: string | null }).nextCursor;
      if (!next) break;
      page = await list(`/api/v1/governance/maturity-list?pageSize=2&cursor=${next}`);
    }
    expect(walked).toEqual(facets(maturity));
    expect(walked.length).toBe(maturity.totalRecords);
    const second = await list('/api/v1/governance/maturity-list?pageSize=2&currentPage=2');
    expect(facets(second)).toEqual(facets(maturity).slice(2, 4));
    const overview = await list('/api/v1/governance/overview-list?pageSize=1000');
    expect(
      overview.results.every((e) => !['ENVIRONMENT', 'DOCUMENT_SET', 'GLOSSARY_ROOT'].includes(e.nodeType)),
    ).toBe(true);
  });
});

describe('every list path with mixed parameters', () => {
  const sortValue = (e: Element, key: string) =>
    `${key === 'name' ? e.name.toLowerCase() : key === 'nodeId' ? '' : e[key as 'creationDate' | 'modificationDate']}\u0001${e.nodeId}`;

  it('answers 200 with pages in the asked order that a cursor continues, never a 500', async () => {
    const combos = [
      'sortKey=name&order=DESC&pageSize=2',
      'sortKey=modificationDate&modifiedSince=2020-01-01T00:00:00Z&nodeStatus=IN_PROGRESS&pageSize=3',
      'sortKey=creationDate&name=a&pageSize=1',
      'draft=false&order=DESC',
      'nodeStatus=PUBLISHED&sortKey=name',
    ];
    const paths = [
      '/api/v1/list',
      `/api/v1/list/${docsFolder}`,
      ...TYPED_LISTS.filter((t) => t.kind !== 'maturity').map((t) => `/api/v1${t.path}`),
    ];
    for (const path of paths) {
      for (const query of combos) {
        const params = new URLSearchParams(query);
        const key = params.get('sortKey') ?? 'nodeId';
        const descending = params.get('order') === 'DESC';
        const first = await list(`${path}?${query}`);
        const next = first.nextCursor ? await list(`${path}?${query}&cursor=${first.nextCursor}`) : null;
        const values = [...first.results, ...(next?.results ?? [])].map((e) => sortValue(e, key));
        const ordered = [...values].sort();
        expect(values, `${path}?${query}`).toEqual(descending ? ordered.reverse() : ordered);
      }
    }
  });
});

describe('bad list requests', () => {
  const problem = async (path: string) => {
    const response = await api.call('GET', path, { token: admin });
    expect(response.status, path).toBe(400);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    return response.body.errors[0];
  };

  it('names the parameter and the rule', async () => {
    expect(await problem('/api/v1/list?pageSize=1001')).toMatchObject({
      path: '$.pageSize',
      rule: 'maximum',
    });
    expect(await problem('/api/v1/list?sortBy=name')).toMatchObject({
      path: '$.sortBy',
      rule: 'unrecognized_key',
    });
    expect(await problem('/api/v1/list?sortKey=size')).toMatchObject({ path: '$.sortKey' });
    expect(await problem('/api/v1/list?order=UP')).toMatchObject({ path: '$.order' });
    expect(await problem('/api/v1/list?nodeType=TERM&nodeType=TERMS')).toMatchObject({ path: '$.nodeType' });
    expect(await problem('/api/v1/process/list?nodeType=TERM')).toMatchObject({ path: '$.nodeType' });
    expect(await problem('/api/v1/list?modifiedSince=yesterday')).toMatchObject({ path: '$.modifiedSince' });
    expect(await problem('/api/v1/list?cursor=garbage')).toMatchObject({ path: '$.cursor' });
    expect(await problem('/api/v1/governance/maturity-list?sortKey=name')).toMatchObject({
      path: '$.sortKey',
    });
  });

  it('refuses a cursor of another query, and a cursor with currentPage', async () => {
    const page = await list(`/api/v1/list/${docsFolder}?pageSize=2`);
    expect(
      await problem(`/api/v1/list/${docsFolder}?pageSize=2&sortKey=name&cursor=${page.nextCursor}`),
    ).toMatchObject({
      path: '$.cursor',
    });
    expect(
      await problem(`/api/v1/list/${docsFolder}?pageSize=2&currentPage=2&cursor=${page.nextCursor}`),
    ).toMatchObject({
      path: '$.currentPage',
    });
  });
});

describe('names beyond the Basic Multilingual Plane', () => {
  it('a cursor walk over several partitions gives each object once, in the order of one page', async () => {
    // DynamoDB sorts keys by their UTF-8 bytes: ｚ (U+FF5A) before 😀 (U+1F600), where JavaScript's `<`
    // says the opposite; and the 200th character of the long name's sort key is half of an emoji.
    const inL = (await createNode(api, admin, folder(envL, 'Unicode'))).nodeId;
    const inM = (await createNode(api, admin, folder(envM, 'Unicode'))).nodeId;
    for (const [parent, name] of [
      [inL, '😀 unicode-walk'],
      [inM, 'ｚ unicode-walk'],
      [inL, `${'a'.repeat(199)}😀 unicode-walk`],
      [inM, 'b unicode-walk'],
      [inM, '😀😀 unicode-walk'],
      [inL, 'ｚｚ unicode-walk'],
    ] as const) {
      await createNode(api, admin, urlDocument(parent, name));
    }
    for (const order of ['ASC', 'DESC']) {
      const query = `/api/v1/document/list?name=unicode-walk&sortKey=name&order=${order}`;
      const whole = await list(`${query}&pageSize=50`);
      expect(whole.totalRecords).toBe(6);
      const walked: string[] = [];
      let next: string | null = `${query}&pageSize=1`;
      while (next) {
        const page = await list(next);
        walked.push(...page.results.map((e) => e.name));
        next = page.nextCursor ? `${query}&pageSize=1&cursor=${page.nextCursor}` : null;
      }
      expect(walked, order).toEqual(whole.results.map((e) => e.name));
      const ascending = ['a', 'b', 'ｚ ', 'ｚｚ', '😀 ', '😀😀'];
      const expected = order === 'ASC' ? ascending : [...ascending].reverse();
      expect(walked.map((name) => expected.find((start) => name.startsWith(start)))).toEqual(expected);
    }
  });
});
