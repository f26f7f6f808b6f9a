/**
 * How every function is bundled, in esbuild's terms: the CDK construct and the benchmark both build
 * with bundleFunction, so the bytes the benchmark reports are the bytes Lambda loads.
 */

import { join } from 'node:path';
import { type BuildOptions, buildSync, type Metafile } from 'esbuild';
import { CHUNK_FOLDER } from '#shared/bundle-layout.ts';
import { patternsOf } from '#shared/http/route-patterns.ts';
import { ROUTES } from '#shared/http/routes.ts';

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

/**
 * Bundles a function's handler into `outDir` (synchronously: CDK's local bundling cannot wait). Returns
 * the build's metafile, which says which output is the entry and which are chunks. `overrides` is for
 * the benchmark's baselines, built otherwise alike.
 */
export function bundleFunction(entry: string, outDir: string, overrides: BuildOptions = {}): Metafile {
  const result = buildSync({ ...functionBuildOptions(entry, outDir), ...overrides });
  return result.metafile as Metafile;
}
