/**
 * How a function's bundle is laid out in its folder (infra/bundling.ts builds it so): code that finds its
 * way around its own bundle at run time (source maps, files copied beside it) reads it from here.
 */
import { basename, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The entry module Lambda loads: `index.handler`. */
export const ENTRY_FILE = 'index.mjs';

/** The folder beside the entry of the modules a function loads only when a request needs them. */
export const CHUNK_FOLDER = 'chunks';

/** The bundle's folder, seen from one of its modules: the module's own, or the parent of the chunk folder. */
export function bundleDir(moduleUrl: string): string {
  const here = dirname(fileURLToPath(moduleUrl));
  return basename(here) === CHUNK_FOLDER ? dirname(here) : here;
}
