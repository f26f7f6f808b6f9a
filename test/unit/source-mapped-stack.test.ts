/** A bundle's logged stack points into the sources, from the map beside it, without Node loading maps. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { FUNCTION_BUNDLING } from '#infra/bundling.ts';
import { sourceMappedStack } from '#shared/logging/source-mapped-stack.ts';

async function runBundled(withMap: boolean): Promise<{ raw: string; mapped: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'mapped-stack-'));
  const outfile = join(dir, 'index.mjs');
  await build({
    ...FUNCTION_BUNDLING,
    mainFields: [...FUNCTION_BUNDLING.mainFields],
    banner: { js: FUNCTION_BUNDLING.banner },
    bundle: true,
    entryPoints: [join(import.meta.dirname, '..', 'fixtures', 'throws-in-bundle.ts')],
    outfile,
    logLevel: 'silent',
  });
  if (!withMap) renameSync(`${outfile}.map`, join(dir, 'elsewhere.map'));
  // No --enable-source-maps: Node itself never reads the map.
  const out = execFileSync(process.execPath, [outfile], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH },
  });
  return JSON.parse(out);
}

describe('source-mapped stacks', () => {
  it('maps the bundle frames of a logged stack to the source lines', async () => {
    const { raw, mapped } = await runBundled(true);
    expect(raw).toMatch(/index\.mjs:\d+:\d+/);
    expect(raw).not.toContain('throws-in-bundle.ts');
    expect(mapped).toMatch(/at \S+ \(test\/fixtures\/throws-in-bundle\.ts:5:\d+\)/);
    expect(mapped).toContain('Error: thrown on line 5 of the fixture');
  });

  it('logs the stack as it is when no map sits beside the bundle, or when run from source', async () => {
    const { raw, mapped } = await runBundled(false);
    expect(mapped).toBe(raw);
    const fromSource = new Error('here').stack;
    expect(sourceMappedStack(fromSource)).toBe(fromSource);
  });
});
