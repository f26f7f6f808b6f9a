/**
 * The one test file that bundles (the stack is synthesized once, with every function bundled): every
 * function's real ESM bundle loads in a fresh Node process, the reference serves Swagger UI from the files
 * beside its bundle, and hostile requests get the same answers from the bundles as from the handlers the
 * embedded stack runs.
 */
import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { App } from 'aws-cdk-lib';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { toEvent } from '#infra/local/http-adapter.ts';
import { ContentRepositoryStack } from '#infra/stacks/content-repository-stack.ts';
import { stageSettings } from '#infra/stage.ts';
import { BACKGROUND_JOBS } from '#shared/api/background-jobs.ts';
import { FALLBACK_OPERATION, OPERATION_LIST, type OperationName } from '#shared/api/operations/index.ts';
import { BUNDLED_ASSET_DIR, REFERENCE_ASSET_FILES } from '#shared/api/reference-assets.ts';
import { CHUNK_FOLDER, ENTRY_FILE } from '#shared/bundle-layout.ts';
import { resolveRoute } from '#shared/http/routes.ts';
import type { HttpEvent, HttpHandler, HttpResult } from '#shared/http/types.ts';
import { scratchDir } from '../fixtures/scratch-dir.ts';

// What a deployed function gets, except that DynamoDB is a dead endpoint: an answer that needed a storage
// call shows up as a failure, not as the 4xx expected. The same settings serve the in-process handlers.
const keyDir = scratchDir('bundle-test-key');
const assemblyOut = scratchDir('bundle-test-assembly');
const keyFile = join(keyDir, 'token-signing-key.pem');
writeFileSync(
  keyFile,
  generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'pem', type: 'pkcs8' }),
);
const FUNCTION_ENV = {
  TABLE_NAME: 'bundle-test-table',
  BUCKET_NAME: 'bundle-test-bucket',
  TOKEN_SIGNING_KEY_FILE: keyFile,
  TOKEN_SIGNING_KEY_ID: '',
  DYNAMODB_ENDPOINT: 'http://127.0.0.1:9',
  AWS_REGION: 'eu-west-1',
  AWS_ACCESS_KEY_ID: 'bundle-test',
  AWS_SECRET_ACCESS_KEY: 'bundle-test',
  LOG_LEVEL: 'silent',
};
Object.assign(process.env, FUNCTION_ENV);

let assemblyDir: string;
/** Each operation's bundle folder. */
const bundleOf = new Map<OperationName, string>();

beforeAll(() => {
  const app = new App({ outdir: assemblyOut, context: { stage: 'bundle-test' } });
  const stack = new ContentRepositoryStack(app, 'Bundled', {
    stage: stageSettings((k) => app.node.tryGetContext(k)),
  });
  const assembly = app.synth();
  assemblyDir = assembly.directory;
  for (const [operation, fn] of stack.functions) {
    // The function's code is the asset `<hash>.zip`, staged as the folder `asset.<hash>`.
    const code = stack.resolve((fn.function.node.defaultChild as CfnFunction).code) as { s3Key: string };
    bundleOf.set(operation, join(assemblyDir, `asset.${code.s3Key.replace(/\.zip$/, '')}`));
  }
}, 300_000);

function runBundles(invocations: { bundle: string; event: HttpEvent }[]): HttpResult[] {
  const out = execFileSync(
    process.execPath,
    [join(import.meta.dirname, '..', 'fixtures', 'invoke-bundles.mjs')],
    {
      env: { PATH: process.env.PATH, ...FUNCTION_ENV },
      cwd: '/',
      input: JSON.stringify(
        invocations.map(({ bundle, event }) => ({ bundle: join(bundle, ENTRY_FILE), event })),
      ),
      encoding: 'utf8',
      stdio: ['pipe', 'pipe', 'ignore'],
    },
  );
  return JSON.parse(out);
}

/** What a module imports, in its own words: `import ... from "./x.mjs"` (static) or `import("./x.mjs")`. */
function relativeImports(file: string): { static: string[]; dynamic: string[] } {
  const code = readFileSync(file, 'utf8');
  const resolveAll = (pattern: RegExp) =>
    [...code.matchAll(pattern)].map((m) => join(dirname(file), m[1] as string));
  return {
    static: resolveAll(/(?:from|import)\s*"(\.\.?\/[^"]+\.mjs)"/g),
    dynamic: resolveAll(/import\("(\.\.?\/[^"]+\.mjs)"\)/g),
  };
}

/** The modules a cold start of the bundle in `dir` loads: index.mjs and what it imports statically. */
function loadedAtInit(dir: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const next of relativeImports(file).static) visit(next);
  };
  visit(join(dir, ENTRY_FILE));
  return [...seen];
}

const modulesIn = (dir: string) => [
  join(dir, ENTRY_FILE),
  ...(existsSync(join(dir, CHUNK_FOLDER)) ? readdirSync(join(dir, CHUNK_FOLDER)) : [])
    .filter((f) => f.endsWith('.mjs'))
    .map((f) => join(dir, CHUNK_FOLDER, f)),
];

describe('function bundles', () => {
  it('are minified ESM with the SDK inside and an unreferenced source map beside each module, and export a handler', () => {
    const bundles = readdirSync(assemblyDir)
      .filter((d) => d.startsWith('asset.'))
      .map((d) => join(assemblyDir, d))
      .filter((d) => existsSync(join(d, ENTRY_FILE)));
    // Every operation, every background job, and the change recorder.
    // The stream and queue consumers besides: the change recorder, the webhook dispatcher and deliverer.
    expect(bundles).toHaveLength(OPERATION_LIST.length + Object.keys(BACKGROUND_JOBS).length + 3);
    expect(bundles.filter((d) => existsSync(join(d, BUNDLED_ASSET_DIR)))).toHaveLength(1);
    for (const dir of bundles) {
      const entries = readdirSync(dir);
      // The reference's function carries Swagger UI's files beside its bundle; modules loaded on demand
      // are in the chunk folder.
      expect(entries.filter((e) => e !== BUNDLED_ASSET_DIR && e !== CHUNK_FOLDER).sort()).toEqual([
        'index.mjs',
        'index.mjs.map',
      ]);
      if (entries.includes(BUNDLED_ASSET_DIR)) {
        expect(readdirSync(join(dir, BUNDLED_ASSET_DIR)).sort()).toEqual(
          Object.keys(REFERENCE_ASSET_FILES).sort(),
        );
      }
      for (const file of modulesIn(dir)) {
        const code = readFileSync(file, 'utf8');
        // The source map sits beside each module, unreferenced: Node never reads it at init.
        expect(existsSync(`${file}.map`), file).toBe(true);
        expect(code).not.toContain('sourceMappingURL');
        expect(code).not.toMatch(/from\s*["']@aws-sdk\//);
        // Every import is of a file that is there.
        const imports = relativeImports(file);
        for (const target of [...imports.static, ...imports.dynamic])
          expect(existsSync(target), target).toBe(true);
      }
      const code = readFileSync(join(dir, ENTRY_FILE), 'utf8');
      // Minified: a handful of very long lines (template literals keep their own line breaks).
      expect(code.length / code.split('\n').length).toBeGreaterThan(2000);
      // The entry, and every chunk on its own (a chunk loaded on demand must load).
      const loaded = execFileSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `const [entry, ...chunks] = ${JSON.stringify(modulesIn(dir))};
           const m = await import(entry);
           for (const chunk of chunks) await import(chunk);
           console.log(typeof m.handler);`,
        ],
        {
          env: { PATH: process.env.PATH, ...FUNCTION_ENV },
          cwd: '/',
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'ignore'],
        },
      );
      expect(loaded.trim()).toBe('function');
    }
  });
});

describe('what cold starts parse', () => {
  const initCode = (operation: OperationName) =>
    loadedAtInit(bundleOf.get(operation) as string)
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n');
  const lazyCode = (operation: OperationName) => {
    const dir = bundleOf.get(operation) as string;
    const atInit = new Set(loadedAtInit(dir));
    return modulesIn(dir)
      .filter((file) => !atInit.has(file))
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n');
  };
  // The S3 client's service namespace, the Lambda client's, and KMS's JSON protocol target.
  const S3 = 'com.amazonaws.s3';
  const LAMBDA = 'com.amazonaws.lambda';
  const KMS = 'TrentService';

  it('no bundle carries the credential chain beyond environment credentials; only login carries KMS, loaded on demand', () => {
    const signers = OPERATION_LIST.filter((o) => o.access.signsTokens).map((o) => o.name);
    expect(signers).toEqual(['login']);
    for (const operation of bundleOf.keys()) {
      const code = modulesIn(bundleOf.get(operation) as string)
        .map((file) => readFileSync(file, 'utf8'))
        .join('\n');
      // Markers of the SSO and credential_process providers.
      expect(code, operation).not.toContain('sso_start_url');
      expect(code, operation).not.toContain('credential_process');
      // Login signs with KMS from its first request on; no cold start parses the client.
      expect(code.includes(KMS), operation).toBe(operation === 'login');
      expect(initCode(operation).includes(KMS), operation).toBe(false);
    }
  });

  it('loads the S3 and Lambda clients only with the first request that needs them', () => {
    // Few creates and updates attach a file, few purges remove one, and only an upload's last chunk or
    // a stale assembly starts the assembly function.
    for (const operation of ['createNode', 'updateNode', 'listTrash', 'restoreNode', 'purgeTrash'] as const) {
      expect(initCode(operation).includes(S3), operation).toBe(false);
    }
    for (const operation of ['createNode', 'updateNode', 'purgeTrash'] as const) {
      expect(lazyCode(operation).includes(S3), operation).toBe(true);
    }
    for (const operation of ['getUpload', 'testChunk', 'receiveChunk'] as const) {
      expect(initCode(operation).includes(LAMBDA), operation).toBe(false);
      expect(lazyCode(operation).includes(LAMBDA), operation).toBe(true);
      // Invoke only, not every command of the client (as a dynamic import of the package would bring).
      expect(lazyCode(operation).includes('CreateEventSourceMapping'), operation).toBe(false);
    }
    // A chunk's put and a download's read or presigned URL go without the S3 client (s3-object-requests.ts):
    // the chunk function loads it with the assembly of a small file, the download function never.
    expect(initCode('receiveChunk').includes(S3)).toBe(false);
    expect(lazyCode('receiveChunk').includes(S3)).toBe(true);
    expect(initCode('downloadFile').includes(S3) || lazyCode('downloadFile').includes(S3)).toBe(false);
    // Nor the S3 client's REST bindings, which the barrels our S3 calls import from reach
    // (infra/bundling.ts looks through them).
    for (const operation of ['receiveChunk', 'downloadFile'] as const) {
      expect(initCode(operation).includes('No value provided for input HTTP label'), operation).toBe(false);
    }
    // lib-storage is for the assembly, which only a small file's last chunk runs.
    const LIB_STORAGE = 'this instance of Upload has already executed .done()';
    expect(initCode('receiveChunk').includes(LIB_STORAGE)).toBe(false);
    expect(lazyCode('receiveChunk').includes(LIB_STORAGE)).toBe(true);
    expect(initCode('getNode').includes(S3) || lazyCode('getNode').includes(S3)).toBe(false);
  });

  it('carries the schemas of the S3 operations a function calls, not of all of them', () => {
    // infra/sdk-schema-keys.ts: two operations no function calls.
    for (const operation of ['receiveChunk', 'downloadFile', 'createNode'] as const) {
      const code = `${initCode(operation)}\n${lazyCode(operation)}`;
      expect(code.includes('SelectObjectContent'), operation).toBe(false);
      expect(code.includes('GetObjectTagging'), operation).toBe(false);
    }
  });

  it("leaves the S3 client's XML protocol to the chunk that loads the client", () => {
    // The SDK's barrels reach it from the DynamoDB client's JSON protocol (infra/sdk-deep-imports.ts).
    const XML = '(XML serializer) cannot write null value';
    for (const operation of ['createNode', 'updateNode', 'restoreNode', 'purgeTrash'] as const) {
      expect(initCode(operation).includes(XML), operation).toBe(false);
      expect(lazyCode(operation).includes(XML), operation).toBe(true);
    }
  });
});

describe('the fallback function bundle', () => {
  it('tells 404 from 405 from the route table inlined at build time, loading no operation declaration at init', () => {
    // A summary only the upload operations' declarations hold.
    expect(OPERATION_LIST.some((o) => o.summary === 'Upload a chunk of a file (resumable.js, flow.js)')).toBe(
      true,
    );
    const dir = bundleOf.get(FALLBACK_OPERATION.name) as string;
    // (The declarations stay in a chunk for the source's own path, never loaded by the bundle.)
    const atInit = loadedAtInit(dir).map((file) => readFileSync(file, 'utf8'));
    expect(atInit.join('\n')).not.toContain('Upload a chunk of a file');
    // The table itself is there: paths, without their declarations.
    expect(atInit.join('\n')).toContain('/api/v1/items/{nodeId}/relations');
    const event = (method: string, url: string) =>
      toEvent({ method, url, headers: {}, httpVersion: '1.1' }, Buffer.alloc(0), `fallback-${method}`);
    const [wrongMethod, unknown] = runBundles([
      { bundle: dir, event: event('PATCH', '/api/v1/items/any') },
      { bundle: dir, event: event('GET', '/api/v1/nothing-here') },
    ]);
    const allowed = resolveRoute('PATCH', '/api/v1/items/any');
    expect(allowed && 'allowed' in allowed).toBe(true);
    expect(wrongMethod?.statusCode).toBe(405);
    expect(wrongMethod?.headers.Allow ?? wrongMethod?.headers.allow).toBe(
      (allowed as { allowed: string[] }).allowed.join(', '),
    );
    expect(unknown?.statusCode).toBe(404);
  });
});

describe('the reference function bundle', () => {
  it('serves Swagger UI from the files beside it, without node_modules', () => {
    const event = toEvent(
      { method: 'GET', url: '/api/v1/swagger/swagger-ui.css', headers: {}, httpVersion: '1.1' },
      Buffer.alloc(0),
      'r1',
    );
    const [result] = runBundles([{ bundle: bundleOf.get('apiDocs') as string, event }]);
    expect(result).toMatchObject({ statusCode: 200, headers: { 'content-type': 'text/css; charset=utf-8' } });
    expect(Buffer.from(result?.body ?? '', 'base64').length).toBeGreaterThan(10_000);
  });
});

const NODE = '0F8FAD5B-D9CB-469F-A165-70867728950E';
const json = { 'content-type': 'application/json', authorization: 'Bearer not-looked-at' };
const folderBody = (extra: string) =>
  `{"@type":"NodeElement","nodeType":"DOCUMENT_SET","name":"x","parent":{"nodeId":"${NODE}"}${extra}}`;

/** Requests a hostile client sends; each must be refused before any storage call. */
const HOSTILE: {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string;
  status: number;
}[] = [
  { method: 'DELETE', url: `/api/v1/items/${NODE}/grants/..`, status: 400 },
  { method: 'DELETE', url: `/api/v1/items/${NODE}/grants/%2e%2e`, status: 400 },
  { method: 'DELETE', url: `/api/v1/items/${NODE}/grants/%2E%2E/`, status: 400 },
  {
    method: 'PUT',
    url: `/api/v1/items/${NODE}/grants/%2E%2E`,
    headers: json,
    body: '{"role":"READER"}',
    status: 400,
  },
  { method: 'GET', url: '/api/v1/items/%2e%2e/admin/users', status: 404 },
  { method: 'GET', url: '/api/v1/items/../admin/users', status: 404 },
  { method: 'GET', url: '/api/v1/items/%E0%A4%A', status: 400 },
  { method: 'GET', url: '/api/v1/items/%', status: 400 },
  { method: 'GET', url: '/api/v1/list?name=%E0%A4%A', status: 400 },
  { method: 'GET', url: '/api/v1/list?__proto__=1', status: 400 },
  { method: 'GET', url: '/api/v1/list', headers: { cookie: 'access_token=%E0%A4%A' }, status: 401 },
  {
    method: 'POST',
    url: '/api/v1/items',
    headers: json,
    body: folderBody(`,"extensions":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`),
    status: 400,
  },
  {
    method: 'POST',
    url: '/api/v1/items',
    headers: json,
    body: folderBody(',"extensions":{"n":12345678901234567890123456789012345678901}'),
    status: 400,
  },
  {
    method: 'POST',
    url: '/api/v1/items',
    headers: json,
    body: folderBody(',"extensions":{"__proto__":{"x":1}}'),
    status: 400,
  },
  { method: 'PATCH', url: `/api/v1/items/${NODE}`, status: 405 },
  { method: 'DELETE', url: '/upload', status: 405 },
  { method: 'GET', url: '/api/v1/swagger/constructor', status: 404 },
  { method: 'GET', url: '/api/v1/swagger/__proto__', status: 404 },
];

describe('hostile requests', () => {
  it('get the same 4xx problem from the built bundles as from the handlers the embedded stack runs', async () => {
    const cases = HOSTILE.map((request, i) => {
      const event = toEvent(
        { method: request.method, url: request.url, headers: request.headers ?? {}, httpVersion: '1.1' },
        Buffer.from(request.body ?? ''),
        `hostile-${i}`,
      );
      const match = resolveRoute(event.requestContext.http.method, event.rawPath);
      const operation = match && 'route' in match ? match.route.operation : FALLBACK_OPERATION;
      return { request, event, operation };
    });
    const fromBundles = runBundles(
      cases.map(({ event, operation }) => ({ bundle: bundleOf.get(operation.name) as string, event })),
    );
    for (const [i, { request, event, operation }] of cases.entries()) {
      const module = (await import(`../../${operation.handler}`)) as { handler: HttpHandler };
      const fromSource = await module.handler(event, {} as never);
      const bundled = fromBundles[i] as HttpResult;
      const what = `${request.method} ${request.url.slice(0, 80)}`;
      expect(bundled.statusCode, what).toBe(request.status);
      expect(bundled.headers['content-type'], what).toBe('application/problem+json');
      const { requestId: _a, ...bundledProblem } = JSON.parse(bundled.body as string);
      const { requestId: _b, ...sourceProblem } = JSON.parse(fromSource.body as string);
      expect({ status: fromSource.statusCode, ...sourceProblem }, what).toEqual({
        status: bundled.statusCode,
        ...bundledProblem,
      });
    }
  });
});
