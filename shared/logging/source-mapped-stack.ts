/**
 * Stack traces in the request log point into the sources, not into the minified bundle. Each module of
 * the bundle (index.mjs, and the chunks it loads on demand) has its source map beside it, read only when
 * an error is first logged from it: Node's --enable-source-maps would parse the entry's at every cold
 * start instead. Run from source, where no map sits beside a module, stacks are logged as they are.
 */
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleDir } from '#shared/bundle-layout.ts';

/** `at name (file:line:col)` or `at file:line:col`, as V8 prints a frame. */
const FRAME = /^(\s*at (?:.*? \()?)(.+?):(\d+):(\d+)(\)?)$/;

/** The tail of a source path from the project's top folders (or node_modules) on. */
const PROJECT_PATH = /^(?:.*?\/)?((?:shared|functions|infra|test|node_modules)\/.+)$/;

const BUNDLE_DIR = bundleDir(import.meta.url);

const maps = new Map<string, SourceMap | null>();

/** The map beside a module of this bundle, read once; null for anything else. */
function mapOf(file: string): SourceMap | null {
  if (!file.startsWith(BUNDLE_DIR + sep) || !file.endsWith('.mjs')) return null;
  let map = maps.get(file);
  if (map === undefined) {
    try {
      map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8')));
    } catch {
      map = null;
    }
    maps.set(file, map);
  }
  return map;
}

/** Where a bundle position came from, as `shared/x.ts:12:5`. */
function originOf(map: SourceMap, line: number, column: number): string | undefined {
  const entry = map.findEntry(line - 1, column - 1) as {
    originalSource?: string;
    originalLine?: number;
    originalColumn?: number;
  };
  if (!entry.originalSource || entry.originalLine === undefined || entry.originalColumn === undefined)
    return undefined;
  // Sources are relative to wherever the bundle was built; the project's own folders name them well.
  const source = PROJECT_PATH.exec(entry.originalSource)?.[1] ?? entry.originalSource;
  return `${source}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
}

/** `stack` with each frame inside this bundle replaced by its place in the sources. */
export function sourceMappedStack(stack: string | undefined): string | undefined {
  if (!stack) return stack;
  return stack
    .split('\n')
    .map((text) => {
      const frame = FRAME.exec(text);
      if (!frame) return text;
      const [, head, location, line, column, tail] = frame as unknown as string[];
      const file = location?.startsWith('file:') ? fileURLToPath(location) : (location as string);
      const map = mapOf(file);
      const origin = map && originOf(map, Number(line), Number(column));
      return origin ? `${head}${origin}${tail}` : text;
    })
    .join('\n');
}
