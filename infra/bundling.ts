/**
 * How every function is bundled, in esbuild's terms: the benchmark builds with bundleFunction and the CDK
 * construct with bundleFunctionSync, which runs bundleFunction in a worker thread, so the bytes the
 * benchmark reports are the bytes Lambda loads.
 */

import { basename, join } from 'node:path';
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';
import { type BuildOptions, build, type Metafile } from 'esbuild';
import { CHUNK_FOLDER, ENTRY_FILE } from '#shared/bundle-layout.ts';
import { patternsOf } from '#shared/http/route-patterns.ts';
import { ROUTES } from '#shared/http/routes.ts';
import { SDK_MODULES, sdkDeepImports } from './sdk-deep-imports.ts';
import { literalSchemaKeys } from './sdk-schema-keys.ts';

/** Lambda's credentials are in its environment: bundles carry that one provider, not the whole chain. */
export const CREDENTIALS_ALIAS = {
  '@aws-sdk/credential-provider-node': join(
    import.meta.dirname,
    '..',
    'shared',
    'clients',
    'lambda-credentials.ts',
  ),
} as const;

/** ESM bundles need `require` for the CommonJS dependencies that load Node built-ins. */
export const ESM_REQUIRE_BANNER =
  "import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);";

export const FUNCTION_BUNDLING = {
  platform: 'node',
  format: 'esm',
  target: 'node22',
  minify: true,
  // Beside each module, never loaded at init; shared/logging/source-mapped-stack.ts reads one when an
  // error is first logged from it. File and line are enough there: no sources inside.
  sourcemap: 'external',
  sourcesContent: false,
  treeShaking: true,
  mainFields: ['module', 'main'],
  banner: ESM_REQUIRE_BANNER,
  alias: CREDENTIALS_ALIAS,
} as const;

/** esbuild's options for one function: its handler module in, `index.mjs` and its chunks out. */
export function functionBuildOptions(entry: string, outDir: string): BuildOptions {
  return {
    ...FUNCTION_BUNDLING,
    mainFields: [...FUNCTION_BUNDLING.mainFields],
    alias: { ...FUNCTION_BUNDLING.alias },
    // Every chunk needs its own `require` (module scope).
    banner: { js: FUNCTION_BUNDLING.banner },
    bundle: true,
    // A module the code loads with `import()` (the S3 client where few requests touch a file, the
    // Lambda client that starts an assembly) becomes a chunk of its own: a cold start parses the entry
    // and what it imports statically, and a chunk only when a request first reaches for it.
    splitting: true,
    entryPoints: { index: entry },
    outdir: outDir,
    outExtension: { '.js': '.mjs' },
    chunkNames: `${CHUNK_FOLDER}/[name]-[hash]`,
    // The fallback's route table, inlined (shared/http/route-patterns.ts).
    define: { ROUTE_PATTERNS_JSON: JSON.stringify(JSON.stringify(patternsOf(ROUTES))) },
    metafile: true,
    logLevel: 'silent',
  };
}

const OUR_CLIENT_MODULES = /[\\/]shared[\\/]clients[\\/][^\\/]+\.ts$/;

/**
 * How a bundle takes the SDK's files: imports past its barrels (sdk-deep-imports.ts), and schema modules
 * whose unused schemas can be dropped (sdk-schema-keys.ts). Our own client modules are looked through as
 * the SDK's are: s3-object-requests.ts takes the signer's and retry's parts from the same barrels, which
 * would otherwise make the S3 client's protocol and checksum files reached at every cold start.
 */
export const sdkBundlePlugin = () =>
  sdkDeepImports({
    rewrites: [literalSchemaKeys],
    modules: new RegExp(`${SDK_MODULES.source}|${OUR_CLIENT_MODULES.source}`),
  });

// One plugin (and so one cache of the SDK's barrels) for every bundle this process builds.
const deepImports = sdkBundlePlugin();

/**
 * Bundles a function's handler into `outDir`. Returns the build's metafile, which says which output is
 * the entry and which are chunks. `overrides` is for the benchmark's baselines, built otherwise alike.
 */
export async function bundleFunction(
  entry: string,
  outDir: string,
  overrides: BuildOptions = {},
): Promise<Metafile> {
  const result = await build({
    ...functionBuildOptions(entry, outDir),
    plugins: [deepImports],
    ...overrides,
  });
  return result.metafile as Metafile;
}

/** How long a synchronous bundle may take before it is given up (the slowest takes a few seconds). */
const SYNC_BUNDLE_TIMEOUT_MS = 120_000;
let bundler: Worker | undefined;

/**
 * bundleFunction for CDK's local bundling, which cannot wait for a promise, while esbuild runs plugins
 * only in its asynchronous API: the build runs in a worker thread (kept for the process, so its caches
 * serve every function) and this thread waits on a shared flag until the answer is posted.
 */
export function bundleFunctionSync(entry: string, outDir: string): Metafile {
  if (!bundler) {
    // No loader flags: the worker registers its own (bundle-worker.mjs).
    bundler = new Worker(new URL('./bundle-worker.mjs', import.meta.url), { execArgv: [] });
    // An idle worker does not keep the process alive.
    bundler.unref();
  }
  const done = new Int32Array(new SharedArrayBuffer(4));
  const { port1: answers, port2: reply } = new MessageChannel();
  bundler.postMessage({ entry, outDir, done, reply }, [reply]);
  const waited = Atomics.wait(done, 0, 0, SYNC_BUNDLE_TIMEOUT_MS);
  const answer = receiveMessageOnPort(answers)?.message as
    | { metafile?: Metafile; error?: string }
    | undefined;
  answers.close();
  if (waited === 'timed-out' || !answer) throw new Error(`bundling ${entry} gave no answer`);
  if (answer.error !== undefined) throw new Error(`bundling ${entry} failed: ${answer.error}`);
  return answer.metafile as Metafile;
}

/**
 * The outputs a cold start loads: the entry first, then the chunks it imports statically (not those it
 * imports on demand).
 */
export function coldStartOutputs(metafile: Metafile): Set<string> {
  const { outputs } = metafile;
  // The function's entry by its name: modules it imports on demand are entry points to esbuild too.
  const entry = Object.keys(outputs).find(
    (file) => basename(file) === ENTRY_FILE && outputs[file]?.entryPoint,
  );
  const loaded = new Set<string>();
  const visit = (file: string) => {
    if (loaded.has(file)) return;
    loaded.add(file);
    for (const i of outputs[file]?.imports ?? []) {
      if (i.kind === 'import-statement' && !i.external) visit(i.path);
    }
  };
  if (entry) visit(entry);
  return loaded;
}
