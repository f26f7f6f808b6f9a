/**
 * How every function is bundled, in esbuild's terms: the CDK construct and the benchmark both build
 * from these settings, so the bytes the benchmark reports are the bytes Lambda loads.
 */

import { join } from 'node:path';

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
  // Beside the bundle, never loaded at init; shared/logging/source-mapped-stack.ts reads it when an
  // error is first logged. File and line are enough there: no sources inside.
  sourcemap: 'external',
  sourcesContent: false,
  treeShaking: true,
  mainFields: ['module', 'main'],
  banner: ESM_REQUIRE_BANNER,
  alias: CREDENTIALS_ALIAS,
} as const;
