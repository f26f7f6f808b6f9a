/** How functions are bundled, beyond what the stack's bundle test shows. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Metafile, Plugin } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleFunction, bundleFunctionSync, coldStartOutputs, sdkBundlePlugin } from '#infra/bundling.ts';
import { type LocalS3, startLocalS3 } from '#infra/local/local-s3.ts';
import { sdkDeepImports } from '#infra/sdk-deep-imports.ts';
import { literalSchemaKeys } from '#infra/sdk-schema-keys.ts';
import { s3Calls } from '../fixtures/s3-calls.ts';
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
    const fresh = initCode(await bundleFunction(getNode, outDir(), { plugins: [sdkBundlePlugin()] }));
    expect(after).not.toContain('sso_start_url');
    expect(after.length).toBe(fresh.length);
  });
});

describe("the SDK's schema modules", () => {
  const SCHEMAS = '/x/node_modules/@aws-sdk/client-s3/dist-es/schemas/schemas_0.js';

  it('write a computed key naming a string constant as the literal key, and touch nothing else', () => {
    const text = [
      'const _hH = "httpHeader";',
      'const n0 = "com.amazonaws.s3";',
      'const _x = someCall();',
      'export var A$ = [3, n0, "A", { [_hH]: "x-amz-acl", [_x]: 1 }, [_hH], [0]];',
      'export var B$ = [3, n0, "B",',
      '  {',
      '    [_hH]: "x-amz-meta-",',
      '  },',
      '];',
    ].join('\n');
    const out = literalSchemaKeys(text, SCHEMAS);
    expect(out).toContain('{ "httpHeader": "x-amz-acl", [_x]: 1 }, [_hH], [0]]');
    expect(out).toContain('    "httpHeader": "x-amz-meta-",');
    expect(out.split('\n').slice(0, 3)).toEqual(text.split('\n').slice(0, 3));
    expect(
      literalSchemaKeys(text, '/x/node_modules/@aws-sdk/client-s3/dist-es/commands/PutObjectCommand.js'),
    ).toBe(text);
  });

  describe('in a bundle of S3 calls', () => {
    const entry = join(ROOT, 'test', 'fixtures', 's3-calls.ts');
    const dataDir = scratchDir('bundled-s3');
    let s3: LocalS3;
    beforeAll(async () => {
      s3 = await startLocalS3({ dataDir });
    });
    afterAll(() => s3?.close());

    it("leave out the schemas of the operations it does not call (the S3 client's schemas, about 65 KB)", async () => {
      const trimmed = initCode(await bundleFunction(entry, outDir()));
      const whole = initCode(await bundleFunction(entry, outDir(), { plugins: [sdkDeepImports()] }));
      for (const unused of ['SelectObjectContent', 'PutBucketReplication', 'RestoreObject']) {
        expect(whole).toContain(unused);
        expect(trimmed).not.toContain(unused);
      }
      expect(whole.length - trimmed.length).toBeGreaterThan(40_000);
    });

    it('answer as the source does: headers, metadata, ranges, tags, multipart, errors, presigned reads', async () => {
      const metafile = await bundleFunction(entry, outDir());
      const bundled = (await import(join(ROOT, [...coldStartOutputs(metafile)][0] as string))) as {
        s3Calls: typeof s3Calls;
      };
      const fromSource = await s3Calls(s3.endpoint, 'from-source');
      expect(fromSource).toMatchObject({
        head: { metadata: { origin: 'bundle-test' }, disposition: 'attachment; filename="small.bin"' },
        range: { contentRange: 'bytes 10-19/100000', same: true },
        tags: [{ Key: 'state', Value: 'unattached' }],
        multipart: { same: true },
        refused: { name: 'InvalidPart', status: 400 },
        presigned: { status: 200, same: true },
        missing: { name: 'NoSuchKey', status: 404 },
        deleted: ['a/gone.bin', 'a/small.bin'],
        left: 0,
      });
      expect(await bundled.s3Calls(s3.endpoint, 'from-bundle')).toEqual(fromSource);
    });
  });
});
