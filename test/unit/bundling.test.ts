/** How functions are bundled, beyond what the stack's bundle test shows. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { bundleFunction, bundleFunctionSync, coldStartOutputs } from '#infra/bundling.ts';
import { sdkDeepImports } from '#infra/sdk-deep-imports.ts';
import { scratchDir } from '../fixtures/scratch-dir.ts';

const out = scratchDir('bundling');
const ROOT = join(import.meta.dirname, '..', '..');
let builds = 0;
const outDir = () => join(out, String(builds++));

/** The code a cold start of the build loads. */
const initCode = (metafile: Metafile) =>
  [...coldStartOutputs(metafile)].map((file) => readFileSync(join(ROOT, file), 'utf8')).join('\n');

describe('bundleFunctionSync', () => {
  it("throws esbuild's error for an entry that does not build, instead of waiting", () => {
    expect(() => bundleFunctionSync(join(import.meta.dirname, 'no-such-handler.ts'), outDir())).toThrow(
      /bundling .*no-such-handler\.ts failed: .*Could not resolve/s,
    );
  });
});

describe("the SDK's barrels looked through", () => {
  it('resolve each build with its own aliases: a build with the whole credential chain changes no other', async () => {
    // The baseline's settings: no alias, so imports resolve to the SDK's whole credential chain.
    await bundleFunction(join(ROOT, 'test', 'bench', 'baseline-handler.ts'), outDir(), {
      alias: {},
      splitting: false,
    });
    const getNode = join(ROOT, 'functions', 'nodes', 'get-node.ts');
    const after = initCode(await bundleFunction(getNode, outDir()));
    const fresh = initCode(await bundleFunction(getNode, outDir(), { plugins: [sdkDeepImports()] }));
    expect(after).not.toContain('sso_start_url');
    expect(after.length).toBe(fresh.length);
  });
});
