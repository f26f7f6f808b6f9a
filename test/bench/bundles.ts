/** Bundle bytes and cold import time of every function, against a baseline that only creates a DynamoDB client. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { FUNCTION_BUNDLING } from '#infra/bundling.ts';
import { PROJECT_ROOT } from '#infra/constructs/api-function.ts';
import { OPERATION_LIST } from '#shared/api/operations/index.ts';

export interface BundleFigures {
  name: string;
  bytes: number;
  /** Median cold import time over fresh Node processes, divided by the baseline's, measured alternately. */
  importRatio: number;
}

async function bundle(
  entry: string,
  outDir: string,
  name: string,
  alias: Record<string, string> = FUNCTION_BUNDLING.alias,
): Promise<string> {
  const outfile = join(outDir, `${name}.mjs`);
  await build({
    ...FUNCTION_BUNDLING,
    alias,
    mainFields: [...FUNCTION_BUNDLING.mainFields],
    banner: { js: FUNCTION_BUNDLING.banner },
    bundle: true,
    entryPoints: [entry],
    outfile,
    logLevel: 'silent',
  });
  return outfile;
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
  const baselineHandler = join(PROJECT_ROOT, 'test/bench/baseline-handler.ts');
  // The baseline as the issue defines it: a DynamoDB client bundled as it comes (full credential chain).
  const baselineFile = await bundle(baselineHandler, outDir, 'baseline', {});
  // The same client with the functions' environment-only credentials: what our own code adds to it.
  const leanBaselineFile = await bundle(baselineHandler, outDir, 'lean-baseline');
  const functions: BundleFigures[] = [];
  for (const { name, handler } of OPERATION_LIST) {
    const file = await bundle(join(PROJECT_ROOT, handler), outDir, name);
    const ratios: number[] = [];
    for (let i = 0; i < runs; i++) {
      // Alternate baseline and candidate so machine noise hits both alike.
      const base = coldImportMs(baselineFile);
      ratios.push(coldImportMs(file) / base);
    }
    functions.push({ name, bytes: statSync(file).size, importRatio: median(ratios) });
  }
  const leanRatios: number[] = [];
  for (let i = 0; i < runs; i++) {
    const base = coldImportMs(baselineFile);
    leanRatios.push(coldImportMs(leanBaselineFile) / base);
  }
  return {
    baseline: { name: 'baseline (DynamoDB client only)', bytes: statSync(baselineFile).size, importRatio: 1 },
    leanBaseline: {
      name: 'the same, environment credentials',
      bytes: statSync(leanBaselineFile).size,
      importRatio: median(leanRatios),
    },
    functions,
  };
}
