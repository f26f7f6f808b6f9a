/**
 * Read capacity per list page as the library grows to 1k, 10k and 50k objects: page 1 of several
 * lists and every page of a full cursor walk. Flat figures mean a page costs the same whatever the
 * size of the library. Objects are written in-process through the node write path (counts included),
 * many to a transaction, which is far faster than one API call each.
 */
import { randomUUID } from 'node:crypto';
import type { Node } from '#shared/domain/node.ts';
import { sampleNode } from '../fixtures/nodes.ts';
import type { BenchStack } from './bench-stack.ts';

export const LIBRARY_SIZES = (process.env.BENCH_LIBRARY_SIZES?.split(',').map(Number) ?? [
  1_000, 10_000, 50_000,
]) as readonly number[];
const WALK_PAGE_SIZE = 1000;

export interface PageCost {
  list: string;
  /** RCU of page 1 (pageSize 50). */
  firstPage: number;
  /** DynamoDB calls of page 1, and how many of them one after another (the session read included). */
  firstPageCalls: number;
  firstPageRoundTrips: number;
  /** Full cursor walk at pageSize 1000: pages, RCU per page (mean, max) and per object listed. */
  walkPages: number;
  walkMean: number;
  walkMax: number;
  walkPerObject: number;
}

export interface ListCostAtSize {
  libraryObjects: number;
  lists: PageCost[];
}

const id = () => randomUUID().toUpperCase();

function documentUnder(folder: Node, name: string, at: string): Node {
  return sampleNode({
    nodeId: id(),
    nodeVersionId: id(),
    name,
    creationDate: at,
    modificationDate: at,
    parentId: folder.nodeId,
    environmentId: folder.environmentId,
    ancestorIds: [...folder.ancestorIds, folder.nodeId],
    richTextDescription: '<p>Seeded for the list benchmark</p>',
  });
}

/** A first-level document folder, created through the API, as stored. */
async function createFolder(bench: BenchStack, environmentId: string, name: string): Promise<Node> {
  const { findNode } = await import('#shared/data/node-repository.ts');
  const created = await bench.api.call('POST', '/api/v1/items', {
    token: bench.token,
    body: { parent: { nodeId: environmentId }, '@type': 'NodeElement', nodeType: 'DOCUMENT_SET', name },
  });
  if (created.status !== 200) throw new Error(`create folder: ${created.status} ${created.text}`);
  return (await findNode(created.body.nodeId)) as Node;
}

/** Folders the other half of the documents is spread over, the same number at every library size. */
const OTHER_FOLDERS = 10;

/**
 * Adds `count` documents, half to the big folder and half round-robin over the other folders. The shape
 * stays the same as the library grows, so a page names the same number of distinct parents at every size
 * and the figures show what the size of the library costs.
 */
async function seed(big: Node, others: Node[], count: number, from: number): Promise<void> {
  const { commitNodeWrites } = await import('#shared/data/node-write-path.ts');
  // 40 × (node + child record) + at most 12 counts items (11 folders, the environment) stays under 100.
  const perCommit = 40;
  for (let i = from; i < from + count; i += perCommit) {
    const at = new Date().toISOString();
    const nodes = Array.from({ length: Math.min(perCommit, from + count - i) }, (_, k) => {
      const n = i + k;
      const folder = n % 2 === 0 ? big : (others[(n >> 1) % others.length] as Node);
      return documentUnder(folder, `Document ${(n * 7919) % 100_003}`, at);
    });
    await commitNodeWrites(nodes.map((node) => ({ kind: 'create' as const, node })));
  }
}

async function pageCost(bench: BenchStack, list: string, path: string): Promise<PageCost> {
  const separator = path.includes('?') ? '&' : '?';
  const first = await bench.api.call('GET', `${path}${separator}pageSize=50`, { token: bench.token });
  if (first.status !== 200) throw new Error(`${path}: ${first.status} ${first.text}`);
  const {
    consumedRCU: firstPage,
    dynamoCalls: firstPageCalls,
    dynamoRoundTrips: firstPageRoundTrips,
  } = bench.lastLine();
  const walk: number[] = [];
  let objects = 0;
  let cursor: string | null = null;
  do {
    const query: string = `${path}${separator}pageSize=${WALK_PAGE_SIZE}${cursor ? `&cursor=${cursor}` : ''}`;
    const page = await bench.api.call('GET', query, { token: bench.token });
    if (page.status !== 200) throw new Error(`${query}: ${page.status} ${page.text}`);
    walk.push(bench.lastLine().consumedRCU);
    objects += page.body.results.length;
    cursor = page.body.nextCursor;
  } while (cursor);
  const round = (n: number) => Math.round(n * 10) / 10;
  const total = walk.reduce((a, b) => a + b, 0);
  return {
    list,
    firstPage,
    firstPageCalls,
    firstPageRoundTrips,
    walkPages: walk.length,
    walkMean: round(total / walk.length),
    walkMax: Math.max(...walk),
    walkPerObject: Math.round((total / objects) * 1000) / 1000,
  };
}

export async function measureListCost(bench: BenchStack): Promise<ListCostAtSize[]> {
  const environments = await bench.api.call('GET', '/api/v1/list?nodeType=ENVIRONMENT', {
    token: bench.token,
  });
  const environmentId: string = environments.body.results[0].nodeId;
  const big = await createFolder(bench, environmentId, 'Big');
  const others: Node[] = [];
  for (let i = 0; i < OTHER_FOLDERS; i++)
    others.push(await createFolder(bench, environmentId, `Folder ${i}`));
  const results: ListCostAtSize[] = [];
  let seeded = 0;
  for (const size of LIBRARY_SIZES) {
    await seed(big, others, size - seeded, seeded);
    seeded = size;
    results.push({
      libraryObjects: size,
      lists: [
        await pageCost(bench, 'GET /list', '/api/v1/list'),
        await pageCost(bench, 'GET /document/list', '/api/v1/document/list'),
        await pageCost(bench, 'GET /list/{big folder} by name', `/api/v1/list/${big.nodeId}?sortKey=name`),
      ],
    });
  }
  return results;
}
