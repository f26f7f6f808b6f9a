/** Bundle bytes and cold import time of every function, against a baseline that only creates a DynamoDB client. */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { BuildOptions } from 'esbuild';
import { bundleFunction, coldStartOutputs } from '#infra/bundling.ts';
import { PROJECT_ROOT } from '#infra/constructs/api-function.ts';
import { OPERATION_LIST } from '#shared/api/operations/index.ts';

export interface BundleFigures {
  name: string;
  /** What a cold start loads: the entry and the chunks it imports statically. */
  bytes: number;
  /** Chunks loaded only when a request first needs them (`import()`), none at a cold start. */
  lazyBytes: number;
  /** Median cold import time over fresh Node processes, divided by the baseline's, measured alternately. */
  importRatio: number;
}

interface Bundle {
  entryFile: string;
  bytes: number;
  lazyBytes: number;
}

/** Bundles as the stack does, and splits the output into what init loads and what it loads later. */
async function bundle(entry: string, outDir: string, overrides?: BuildOptions): Promise<Bundle> {
  const metafile = await bundleFunction(entry, join(outDir, randomUUID()), overrides);
  const modules = Object.entries(metafile.outputs).filter(([file]) => file.endsWith('.mjs'));
  const atInit = coldStartOutputs(metafile);
  const [entryPath] = atInit;
  if (!entryPath) throw new Error(`${entry}: no entry in the build`);
  let bytes = 0;
  let lazyBytes = 0;
  for (const [file, output] of modules) {
    if (atInit.has(file)) bytes += output.bytes;
    else lazyBytes += output.bytes;
  }
  return { entryFile: resolve(entryPath), bytes, lazyBytes };
}

const ENV = {
  PATH: process.env.PATH,
  TABLE_NAME: 't',
  BUCKET_NAME: 'b',
  TOKEN_SIGNING_KEY_ID: 'k',
  AWS_REGION: 'eu-west-1',
};

/** Milliseconds a fresh Node process takes to import the bundle (process start excluded). */
function coldImportMs(file: string): number {
  const script = `const t=performance.now();await import(${JSON.stringify(file)});console.log(performance.now()-t);`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    env: ENV,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return Number(out.trim());
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

export async function measureBundles(runs = 7): Promise<{
  baseline: BundleFigures;
  leanBaseline: BundleFigures;
  functions: BundleFigures[];
}> {
  const outDir = mkdtempSync(join(tmpdir(), 'bench-bundles-'));
  try {
    return await measureIn(outDir, runs);
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

async function measureIn(outDir: string, runs: number) {
  const baselineHandler = join(PROJECT_ROOT, 'test/bench/baseline-handler.ts');
  // The baseline as the issue defines it: a DynamoDB client bundled as it comes, in one file with the
  // whole credential chain (as NodejsFunction would bundle it: no plugin).
  const baseline = await bundle(baselineHandler, outDir, { alias: {}, splitting: false, plugins: [] });
  // The same client bundled as the functions are (environment credentials, split): what our code adds.
  const leanBaseline = await bundle(baselineHandler, outDir);
  const importRatio = (candidate: Bundle) => {
    const ratios: number[] = [];
    for (let i = 0; i < runs; i++) {
      // Alternate baseline and candidate so machine noise hits both alike.
      const base = coldImportMs(baseline.entryFile);
      ratios.push(coldImportMs(candidate.entryFile) / base);
    }
    return median(ratios);
  };
  const figures = (name: string, b: Bundle): BundleFigures => ({
    name,
    bytes: b.bytes,
    lazyBytes: b.lazyBytes,
    importRatio: importRatio(b),
  });
  const functions: BundleFigures[] = [];
  for (const { name, handler } of OPERATION_LIST) {
    functions.push(figures(name, await bundle(join(PROJECT_ROOT, handler), outDir)));
  }
  return {
    baseline: { name: 'baseline (DynamoDB client only)', ...baseline, importRatio: 1 },
    leanBaseline: figures('the same, environment credentials', leanBaseline),
    functions,
  };
}
