/**
 * An esbuild plugin that takes the AWS SDK's named imports past its barrel modules, to the files that
 * define them. The SDK's shared packages (@aws-sdk/core, @smithy/core) re-export each submodule's files
 * from one index (`@aws-sdk/core/protocols` re-exports the JSON, CBOR, query and XML protocols). When a
 * function splits its bundle, esbuild assigns whole files to chunks by which entry points reach them,
 * following every import of a reached file: the DynamoDB client's import of its JSON protocol from that
 * index makes the XML protocol, the checksums and the stream helpers "reached" by the entry, so the code
 * the on-demand S3 client shares with them lands in a chunk the entry loads at a cold start (about 27 KB
 * in createNode). Importing each name from its own file leaves the barrel unreached.
 *
 * Only pure barrels are looked through (a file of nothing but `export { ... } from` lines); a name not
 * found in one, or an import the patterns do not read, stays as it was. The SDK declares these packages
 * free of side effects, so skipping the barrel drops nothing a bundle runs.
 */
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { OnLoadResult, Plugin } from 'esbuild';

/** `import { a, b as c } from "<package>..."`, over lines as tsc writes them. */
const namedImportsOf = (packages: string) =>
  new RegExp(`import\\s*\\{([^}]*)\\}\\s*from\\s*["']((?:${packages})[^"']*)["'];?`, 'g');
/** `export { a, b as c } from "./file"`: one line of a barrel. */
const RE_EXPORT = /export\s*\{([^}]*)\}\s*from\s*["']([^"']+)["'];?/g;
/** Which imports are looked through, and in which files: by default the SDK's, in its ES modules. */
export interface DeepImportOptions {
  /** A pattern for the start of the import specifiers (a regular expression's source). */
  packages?: string;
  /** The files whose imports are rewritten (JavaScript, or TypeScript by its `.ts`). */
  modules?: RegExp;
  /** Other rewrites of the same files' text, applied before the imports are read. */
  rewrites?: ReadonlyArray<(text: string, file: string) => string>;
}
const SDK_PACKAGES = '@aws-sdk/|@smithy/';
export const SDK_MODULES = /[\\/]node_modules[\\/]@(aws-sdk|smithy)[\\/].*[\\/]dist-es[\\/].*\.js$/;

interface Binding {
  imported: string;
  local: string;
}
/** Where a barrel's export is defined: the file and its name there. */
interface Origin {
  file: string;
  name: string;
}
/** A barrel's exports by name; null for a module that is not a pure barrel. */
type Barrel = Map<string, Origin> | null;

function bindingsOf(list: string): Binding[] {
  return list
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const [imported, local = imported] = part.split(/\s+as\s+/) as [string, string?];
      return { imported, local };
    });
}

/** The files' rewrites and the barrels read, for one way of resolving imports. */
interface Caches {
  barrels: Map<string, Promise<Barrel>>;
  rewritten: Map<string, Promise<OnLoadResult | undefined>>;
}

/**
 * The plugin. Its caches hold per process (the SDK's files do not change while it runs) and per set of
 * the options that steer resolution: a build with another alias resolves the same import elsewhere.
 */
export function sdkDeepImports({
  packages = SDK_PACKAGES,
  modules = SDK_MODULES,
  rewrites = [],
}: DeepImportOptions = {}): Plugin {
  const namedImports = namedImportsOf(packages);
  const cachesBySettings = new Map<string, Caches>();
  return {
    name: 'sdk-deep-imports',
    setup(build) {
      const { alias, conditions, mainFields, platform, resolveExtensions } = build.initialOptions;
      const settings = JSON.stringify({ alias, conditions, mainFields, platform, resolveExtensions });
      let caches = cachesBySettings.get(settings);
      if (!caches) {
        caches = { barrels: new Map(), rewritten: new Map() };
        cachesBySettings.set(settings, caches);
      }
      const { barrels, rewritten } = caches;
      const resolvePath = async (specifier: string, from: string) => {
        const resolved = await build.resolve(specifier, {
          resolveDir: dirname(from),
          kind: 'import-statement',
        });
        return resolved.errors.length > 0 || resolved.external ? undefined : resolved.path;
      };
      // `within`: the barrels whose reading asked for this one; one of them again is a cycle, not awaited.
      const barrelAt = (file: string, within: readonly string[] = []): Promise<Barrel> => {
        let barrel = barrels.get(file);
        if (!barrel) {
          const chain = [...within, file];
          barrel = readBarrel(file, resolvePath, (target) =>
            chain.includes(target) ? Promise.resolve(null) : barrelAt(target, chain),
          );
          barrels.set(file, barrel);
        }
        return barrel;
      };
      build.onLoad({ filter: modules }, (args) => {
        let result = rewritten.get(args.path);
        if (!result) {
          result = deepenImports(
            args.path,
            namedImports,
            resolvePath,
            (target) => barrelAt(target),
            rewrites,
          );
          rewritten.set(args.path, result);
        }
        return result;
      });
    },
  };
}

type ResolvePath = (specifier: string, from: string) => Promise<string | undefined>;

async function readBarrel(
  file: string,
  resolvePath: ResolvePath,
  barrelAt: (file: string) => Promise<Barrel>,
): Promise<Barrel> {
  const text = readFileSync(file, 'utf8');
  if (text.replace(RE_EXPORT, '').trim() !== '') return null;
  const exports = new Map<string, Origin>();
  for (const [, list, specifier] of text.matchAll(RE_EXPORT)) {
    const target = await resolvePath(specifier as string, file);
    if (!target) return null;
    // A barrel may re-export another barrel's names (@aws-sdk/core/protocols from @smithy/core/protocols).
    const inner = await barrelAt(target);
    for (const { imported, local } of bindingsOf(list as string)) {
      exports.set(local, inner?.get(imported) ?? { file: target, name: imported });
    }
  }
  return exports;
}

async function deepenImports(
  file: string,
  namedImports: RegExp,
  resolvePath: ResolvePath,
  barrelAt: (file: string) => Promise<Barrel>,
  rewrites: ReadonlyArray<(text: string, file: string) => string>,
): Promise<OnLoadResult | undefined> {
  const read = readFileSync(file, 'utf8');
  const text = rewrites.reduce((current, rewrite) => rewrite(current, file), read);
  let out = '';
  let copiedTo = 0;
  for (const match of text.matchAll(namedImports)) {
    const [statement, list, specifier] = match as unknown as [string, string, string];
    const target = await resolvePath(specifier, file);
    const barrel = target ? await barrelAt(target) : null;
    const bindings = bindingsOf(list);
    if (!barrel || bindings.some(({ imported }) => !barrel.has(imported))) continue;
    const deep = bindings.map(({ imported, local }) => {
      const origin = barrel.get(imported) as Origin;
      return `import { ${origin.name} as ${local} } from ${JSON.stringify(origin.file)};`;
    });
    out += text.slice(copiedTo, match.index) + deep.join(' ');
    copiedTo = (match.index as number) + statement.length;
  }
  // Nothing to change: esbuild loads the file itself.
  if (copiedTo === 0 && text === read) return undefined;
  return {
    contents: out + text.slice(copiedTo),
    loader: file.endsWith('.ts') ? 'ts' : 'js',
    resolveDir: dirname(file),
  };
}
