/**
 * What the change feed costs: the write units a write costs with the feed (the request's own, which the
 * feed leaves as they were, and the recorder's per change it records), and the read units of following
 * 1,000 changes through GET /api/v1/changes, in pages of 1,000 and of 100.
 */
import { BENCH_SETTLE_MS, type BenchStack } from './bench-stack.ts';

export interface FeedCost {
  writes: number;
  /** Table WCU of one update request (the write path; the feed adds nothing to it). */
  requestWcuPerWrite: number;
  /** WCU the recorder spent per change it recorded (its puts). */
  recorderWcuPerChange: number;
  /** RCU the recorder spent per change (placing edges, relations and grants; 0 for objects). */
  recorderRcuPerChange: number;
  changesRead: number;
  /** RCU of reading 1,000 changes, by page size. */
  rcuPer1000: Record<number, number>;
  /** Requests to read them, by page size. */
  pages: Record<number, number>;
}

export async function measureFeedCost(
  { api, token, stack, lastLine, recorderLines }: BenchStack,
  writes = 1000,
): Promise<FeedCost> {
  const environments = await api.call('GET', '/api/v1/list?nodeType=ENVIRONMENT', { token });
  const parent = { nodeId: environments.body.results[0].nodeId };
  const folder = { parent, '@type': 'NodeElement', nodeType: 'DOCUMENT_SET', name: 'Feed bench' };
  let current = (await api.call('POST', '/api/v1/items', { token, body: folder })).body;
  await stack.backgroundIdle();
  const settled = async () => {
    await stack.backgroundIdle();
    await new Promise((resolve) => setTimeout(resolve, BENCH_SETTLE_MS + 50));
  };
  await settled();
  const since = (await api.call('GET', '/api/v1/changes?pageSize=1', { token })).body.settledUntil as string;

  const before = recorderLines().length;
  let requestWcu = 0;
  for (let i = 0; i < writes; i++) {
    const answer = await api.call('PUT', `/api/v1/items/${current.nodeId}`, {
      token,
      body: {
        ...folder,
        name: `Feed bench ${i}`,
        nodeId: current.nodeId,
        nodeVersionId: current.nodeVersionId,
      },
    });
    if (answer.status !== 200) throw new Error(`update answered ${answer.status}: ${answer.text}`);
    requestWcu += lastLine().consumedWCU;
    current = answer.body;
  }
  await settled();
  const batches = recorderLines().slice(before);
  const recorded = batches.reduce((sum, b) => sum + b.recorded, 0);
  const sum = (key: 'consumedWCU' | 'consumedRCU') => batches.reduce((total, b) => total + b[key], 0);

  const rcuPer1000: Record<number, number> = {};
  const pages: Record<number, number> = {};
  let changesRead = 0;
  for (const pageSize of [1000, 100]) {
    let cursor: string | undefined;
    let rcu = 0;
    let read = 0;
    let requests = 0;
    for (;;) {
      const query = cursor ? `cursor=${cursor}` : `since=${since}`;
      const page = await api.call('GET', `/api/v1/changes?${query}&pageSize=${pageSize}`, { token });
      if (page.status !== 200) throw new Error(`changes answered ${page.status}: ${page.text}`);
      rcu += lastLine().consumedRCU;
      read += page.body.changes.length;
      requests += 1;
      cursor = page.body.cursor;
      if (!page.body.hasMore) break;
    }
    rcuPer1000[pageSize] = Number(((rcu / Math.max(read, 1)) * 1000).toFixed(1));
    pages[pageSize] = requests;
    changesRead = read;
  }
  return {
    writes,
    requestWcuPerWrite: requestWcu / writes,
    recorderWcuPerChange: sum('consumedWCU') / Math.max(recorded, 1),
    recorderRcuPerChange: sum('consumedRCU') / Math.max(recorded, 1),
    changesRead,
    rcuPer1000,
    pages,
  };
}
