/**
 * Stack traces in the request log point into the sources, not into the minified bundle. The bundle's
 * source map sits beside it (index.mjs.map) and is read only when a first error is logged: Node's
 * --enable-source-maps would parse it at every cold start instead. Run from source, where no map sits
 * beside the module, stacks are logged as they are.
 */
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';

/** `at name (file:line:col)` or `at file:line:col`, as V8 prints a frame. */
const FRAME = /^(\s*at (?:.*? \()?)(.+?):(\d+):(\d+)(\)?)$/;

/** The tail of a source path from the project's top folders (or node_modules) on. */
const PROJECT_PATH = /^(?:.*?\/)?((?:shared|functions|infra|test|node_modules)\/.+)$/;

let loaded: { file: string; map: SourceMap } | null | undefined;

function bundleMap(): { file: string; map: SourceMap } | null {
  if (loaded !== undefined) return loaded;
  try {
    const file = fileURLToPath(import.meta.url);
    loaded = { file, map: new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8'))) };
  } catch {
    loaded = null;
  }
  return loaded;
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
  const bundle = bundleMap();
  if (!bundle) return stack;
  return stack
    .split('\n')
    .map((text) => {
      const frame = FRAME.exec(text);
      if (!frame) return text;
      const [, head, location, line, column, tail] = frame as unknown as string[];
      const file = location?.startsWith('file:') ? fileURLToPath(location) : location;
      if (file !== bundle.file) return text;
      const origin = originOf(bundle.map, Number(line), Number(column));
      return origin ? `${head}${origin}${tail}` : text;
    })
    .join('\n');
}
