/**
 * Many writers in one environment, as an import or a migration runs: `writers` clients create `objects`
 * documents spread over 10 folders of one environment, on a fresh embedded stack whose DynamoDB cancels
 * overlapping transactions as DynamoDB does. Then every folder is walked: each acknowledged create must be
 * listed exactly once, nothing else listed, and the totals exact. Throughput is compared as a ratio to
 * the same load with one writer, measured in the same run.
 *
 * `before` runs the same load against the code as it was before the write path was made to meet
 * contention (BEFORE_REF), on today's embedded DynamoDB, so the comparison shows what the change did.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { startEmbeddedStack } from '#infra/local/embedded-stack.ts';
import { defaultEnvironmentId, folder, urlDocument } from '../integration/helpers/library.ts';
import { ApiClient } from '../integration/helpers/test-stack.ts';

/** The last commit before issue 10 (one COUNTS item per node, no transaction tokens). */
export const BEFORE_REF = '268a76d6587124f1a05fc9b6de810a827ff8b03c';
const FOLDERS = 10;
/** About what a TransactWriteItems takes in DynamoDB, during which its items are held. */
export const CLOUD_TRANSACTION_MS = 15;
const ADMIN = { username: 'bench', password: 'bench-password-123' };
const projectRoot = resolve(import.meta.dirname, '..', '..');

/**
 * The files of today's embedded DynamoDB, laid over an older tree so both meet the same store: its
 * gateway and every module of infra/local it imports, however deep.
 */
function emulatorFiles(): string[] {
  const files = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const source = readFileSync(join(projectRoot, file), 'utf8');
    for (const [, local] of source.matchAll(/from '\.\/([^']+\.ts)'/g)) visit(`infra/local/${local}`);
  };
  visit('infra/local/local-dynamodb.ts');
  // The gateway serves its endpoint in process too; the older clients reach it over HTTP.
  return [...files, 'shared/clients/in-process-endpoints.ts'];
}

export interface LoadResult {
  code: 'current' | 'before';
  writers: number;
  objects: number;
  seconds: number;
  createsPerSecond: number;
  /** How many creates answered each status. */
  statuses: Record<number, number>;
  serverErrors: number;
  /** Acknowledged creates missing from their folder's list, listed twice, or listed but not acknowledged. */
  missing: number;
  duplicated: number;
  unacknowledged: number;
  /** Each folder's totalRecords and the documents list's total equal the creates acknowledged. */
  totalsExact: boolean;
}

type StartStack = typeof startEmbeddedStack;

/** The code tree at BEFORE_REF with today's emulator, in a temporary folder sharing node_modules. */
function checkoutBefore(): { root: string; remove: () => void } {
  const root = mkdtempSync(join(tmpdir(), 'bench-before-'));
  const archive = execFileSync('git', ['archive', BEFORE_REF], { cwd: projectRoot, maxBuffer: 1 << 28 });
  execFileSync('tar', ['-x', '-C', root], { input: archive });
  for (const file of emulatorFiles()) cpSync(join(projectRoot, file), join(root, file));
  // The older embedded stack does not pass the commit time on: its gateway takes the cloud's by default.
  const gateway = join(root, 'infra/local/local-dynamodb.ts');
  const source = readFileSync(gateway, 'utf8');
  const patched = source.replace('options.transactionMs ?? 0', String(CLOUD_TRANSACTION_MS));
  if (patched === source) throw new Error('the gateway no longer reads options.transactionMs ?? 0');
  writeFileSync(gateway, patched);
  symlinkSync(join(projectRoot, 'node_modules'), join(root, 'node_modules'), 'dir');
  return { root, remove: () => rmSync(root, { recursive: true, force: true }) };
}

async function stackStarter(root: string): Promise<StartStack> {
  const module = await import(pathToFileURL(join(root, 'infra/local/embedded-stack.ts')).href);
  return module.startEmbeddedStack as StartStack;
}

export async function runLoad(
  start: StartStack,
  code: LoadResult['code'],
  writers: number,
  objects: number,
): Promise<LoadResult> {
  const dataDir = mkdtempSync(join(tmpdir(), `bench-contention-${code}-${writers}-`));
  const stack = await start({
    port: 0,
    host: '127.0.0.1',
    dataDir,
    adminUsername: ADMIN.username,
    adminPassword: ADMIN.password,
    ttlSweepSeconds: 3600,
    // Commits take as long as DynamoDB's, so overlapping ones meet as often as in the cloud.
    transactionMs: CLOUD_TRANSACTION_MS,
    logLevel: 'silent',
  });
  try {
    const api = new ApiClient(stack.url);
    const token = await api.login(ADMIN.username, ADMIN.password);
    const environmentId = await defaultEnvironmentId(api, token);
    const folders: string[] = [];
    for (let i = 0; i < FOLDERS; i++) {
      const created = await api.call('POST', '/api/v1/items', {
        token,
        body: folder(environmentId, `Import ${i}`),
      });
      folders.push(created.body.nodeId);
    }

    const statuses: Record<number, number> = {};
    const acknowledged = new Map<string, string>();
    let next = 0;
    const writer = async () => {
      for (let job = next++; job < objects; job = next++) {
        const parentId = folders[job % FOLDERS] as string;
        const response = await api.call('POST', '/api/v1/items', {
          token,
          body: urlDocument(parentId, `Imported ${job}`),
        });
        statuses[response.status] = (statuses[response.status] ?? 0) + 1;
        if (response.status === 200) acknowledged.set(response.body.nodeId, parentId);
      }
    };
    const started = performance.now();
    await Promise.all(Array.from({ length: writers }, writer));
    const seconds = (performance.now() - started) / 1000;

    const listed = new Map<string, number>();
    let totalsExact = true;
    for (const parentId of folders) {
      let cursor = '';
      do {
        const query = `pageSize=1000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
        const page = await api.call('GET', `/api/v1/list/${parentId}?${query}`, { token });
        if (!cursor) {
          const expected = [...acknowledged.values()].filter((p) => p === parentId).length;
          totalsExact &&= page.body.totalRecords === expected && page.body.totalRecordsExact === true;
        }
        for (const { nodeId } of page.body.results) listed.set(nodeId, (listed.get(nodeId) ?? 0) + 1);
        cursor = page.body.nextCursor ?? '';
      } while (cursor);
    }
    const documents = await api.call('GET', '/api/v1/document/list?pageSize=1', { token });
    totalsExact &&= documents.body.totalRecords === acknowledged.size;

    const serverErrors = Object.entries(statuses)
      .filter(([status]) => Number(status) >= 500)
      .reduce((sum, [, count]) => sum + count, 0);
    return {
      code,
      writers,
      objects,
      seconds: Number(seconds.toFixed(2)),
      createsPerSecond: Number((objects / seconds).toFixed(1)),
      statuses,
      serverErrors,
      missing: [...acknowledged.keys()].filter((id) => !listed.has(id)).length,
      duplicated: [...listed.values()].filter((count) => count > 1).length,
      unacknowledged: [...listed.keys()].filter((id) => !acknowledged.has(id)).length,
      totalsExact,
    };
  } finally {
    await stack.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * The load at 1 and at `writers` writers, for today's code and the code before; each code first runs a
 * small warm-up load (not counted) so neither pays for loading modules and JIT in its figures.
 */
export async function measureContention(writers: number, objects: number): Promise<LoadResult[]> {
  const results: LoadResult[] = [];
  const before = checkoutBefore();
  try {
    for (const [code, root] of [
      ['current', projectRoot],
      ['before', before.root],
    ] as const) {
      const start = await stackStarter(root);
      await runLoad(start, code, writers, Math.min(objects, 100));
      for (const count of [1, writers]) results.push(await runLoad(start, code, count, objects));
    }
  } finally {
    before.remove();
  }
  return results;
}
