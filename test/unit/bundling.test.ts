/** How functions are bundled, beyond what the stack's bundle test shows. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Metafile, Plugin } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { bundleFunction, bundleFunctionSync, coldStartOutputs } from '#infra/bundling.ts';
import { sdkDeepImports } from '#infra/sdk-deep-imports.ts';
import { scratchDir } from '../fixtures/scratch-dir.ts';

const out = scratchDir('bundling');
const ROOT = join(import.meta.dirname, '..', '..');
let builds = 0;
const outDir = () => join(out, String(builds++));

/** The code a cold start of the build loads, and the code it loads on demand. */
const initCode = (metafile: Metafile) =>
  [...coldStartOutputs(metafile)].map((file) => readFileSync(join(ROOT, file), 'utf8')).join('\n');
const lazyCode = (metafile: Metafile) => {
  const atInit = coldStartOutputs(metafile);
  return Object.keys(metafile.outputs)
    .filter((file) => file.endsWith('.mjs') && !atInit.has(file))
    .map((file) => readFileSync(join(ROOT, file), 'utf8'))
    .join('\n');
};

describe('bundleFunctionSync', () => {
  it("throws esbuild's error for an entry that does not build, instead of waiting", () => {
    expect(() => bundleFunctionSync(join(import.meta.dirname, 'no-such-handler.ts'), outDir())).toThrow(
      /bundling .*no-such-handler\.ts failed: .*Could not resolve/s,
    );
  });
});

describe("the SDK's barrels looked through", () => {
  // A package of pure barrels that re-export each other (pkg/first.js, pkg/second.js); entry.js uses `one`
  // at once and `two` only in the chunk it loads on demand, both through the barrel.
  const fixture = join(ROOT, 'test', 'fixtures', 'barrels');
  const buildFixture = (plugins: Plugin[]) =>
    bundleFunction(join(fixture, 'entry.js'), outDir(), {
      alias: { '@fixture-barrels': join(fixture, 'pkg') },
      plugins,
    });
  const lookThrough = () =>
    sdkDeepImports({ packages: '@fixture-barrels/', modules: /[\\/]fixtures[\\/]barrels[\\/].*\.js$/ });

  it('leave to the on-demand chunk what only it uses, where the barrel put it in what a cold start loads', async () => {
    const deep = await buildFixture([lookThrough()]);
    expect(initCode(deep)).toContain('marker of one');
    expect(initCode(deep)).not.toContain('marker of two');
    expect(lazyCode(deep)).toContain('marker of two');
    // The same build without the plugin: the barrel makes two.js part of the cold start.
    expect(initCode(await buildFixture([]))).toContain('marker of two');
    // And the bundle runs: the re-export cycle between the barrels neither hangs the build nor loses a name.
    const entry = join(ROOT, [...coldStartOutputs(deep)][0] as string);
    const { handler } = (await import(entry)) as { handler: () => Promise<string[]> };
    expect(await handler()).toEqual(['marker of one', 'marker of two']);
  });

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
