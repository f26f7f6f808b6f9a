/** A bundle's logged stack points into the sources, from the maps beside its modules, without Node loading maps. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleFunctionSync } from '#infra/bundling.ts';
import { CHUNK_FOLDER, ENTRY_FILE } from '#shared/bundle-layout.ts';
import { sourceMappedStack } from '#shared/logging/source-mapped-stack.ts';
import { scratchDir } from '../fixtures/scratch-dir.ts';

type Stacks = { raw: string; mapped: string };

const bundles = scratchDir('mapped-stack');

function runBundled(withMaps: boolean): { inEntry: Stacks; inChunk: Stacks } {
  const dir = mkdtempSync(join(bundles, 'bundle-'));
  bundleFunctionSync(join(import.meta.dirname, '..', 'fixtures', 'throws-in-bundle.ts'), dir);
  if (!withMaps) {
    renameSync(join(dir, `${ENTRY_FILE}.map`), join(dir, 'elsewhere.map'));
    for (const file of readdirSync(join(dir, CHUNK_FOLDER)).filter((f) => f.endsWith('.map')))
      renameSync(join(dir, CHUNK_FOLDER, file), join(dir, `${file}.elsewhere`));
  }
  // No --enable-source-maps: Node itself never reads a map.
  const out = execFileSync(process.execPath, [join(dir, ENTRY_FILE)], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH },
  });
  const [inEntry, inChunk] = JSON.parse(out) as Stacks[];
  return { inEntry: inEntry as Stacks, inChunk: inChunk as Stacks };
}

describe('source-mapped stacks', () => {
  it('maps the bundle frames of a logged stack to the source lines, in the entry and in a chunk', () => {
    const { inEntry, inChunk } = runBundled(true);
    expect(inEntry.raw).toMatch(/index\.mjs:\d+:\d+/);
    expect(inEntry.raw).not.toContain('throws-in-bundle.ts');
    expect(inEntry.mapped).toMatch(/at \S+ \(test\/fixtures\/throws-in-bundle\.ts:5:\d+\)/);
    expect(inEntry.mapped).toContain('Error: thrown on line 5 of the fixture');
    // The chunk's frame maps through the chunk's own map; the caller's through the entry's.
    expect(inChunk.raw).toMatch(/chunks\/throws-in-chunk-\w+\.mjs:\d+:\d+/);
    expect(inChunk.mapped).toMatch(/at \S+ \(test\/fixtures\/throws-in-chunk\.ts:3:\d+\)/);
    expect(inChunk.mapped).toMatch(/test\/fixtures\/throws-in-bundle\.ts:20:\d+/);
  });

  it('logs the stack as it is when no map sits beside the bundle, or when run from source', () => {
    const { inEntry, inChunk } = runBundled(false);
    expect(inEntry.mapped).toBe(inEntry.raw);
    expect(inChunk.mapped).toBe(inChunk.raw);
    const fromSource = new Error('here').stack;
    expect(sourceMappedStack(fromSource)).toBe(fromSource);
  });
});
