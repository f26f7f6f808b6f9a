/** The one test that bundles: every function's real ESM bundle loads in a fresh Node process. */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { ContentRepositoryStack } from '#infra/stacks/content-repository-stack.ts';
import { stageSettings } from '#infra/stage.ts';
import { BUNDLED_ASSET_DIR, REFERENCE_ASSET_FILES } from '#shared/api/reference-assets.ts';
import { OPERATIONS } from '#shared/http/routes.ts';

describe('function bundles', () => {
  it('are minified ESM without source maps, with the SDK inside, and export a handler', () => {
    const app = new App({ context: { stage: 'bundle-test' } });
    new ContentRepositoryStack(app, 'Bundled', { stage: stageSettings((k) => app.node.tryGetContext(k)) });
    const assembly = app.synth();
    const bundles = readdirSync(assembly.directory)
      .filter((d) => d.startsWith('asset.'))
      .map((d) => join(assembly.directory, d))
      .filter((d) => existsSync(join(d, 'index.mjs')));
    expect(bundles).toHaveLength(Object.keys(OPERATIONS).length);
    expect(bundles.filter((d) => existsSync(join(d, BUNDLED_ASSET_DIR)))).toHaveLength(1);
    for (const dir of bundles) {
      const entries = readdirSync(dir);
      // The reference's function carries Swagger UI's files beside its bundle.
      expect(entries.filter((e) => e !== BUNDLED_ASSET_DIR)).toEqual(['index.mjs']);
      if (entries.includes(BUNDLED_ASSET_DIR)) {
        expect(readdirSync(join(dir, BUNDLED_ASSET_DIR)).sort()).toEqual(
          Object.keys(REFERENCE_ASSET_FILES).sort(),
        );
      }
      const code = readFileSync(join(dir, 'index.mjs'), 'utf8');
      // Minified: a handful of very long lines (template literals keep their own line breaks).
      expect(code.length / code.split('\n').length).toBeGreaterThan(2000);
      expect(code).not.toMatch(/from\s*["']@aws-sdk\//);
      const loaded = execFileSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `const m = await import(${JSON.stringify(join(dir, 'index.mjs'))}); console.log(typeof m.handler);`,
        ],
        {
          env: {
            PATH: process.env.PATH,
            TABLE_NAME: 't',
            BUCKET_NAME: 'b',
            TOKEN_SIGNING_KEY_ID: 'k',
            AWS_REGION: 'eu-west-1',
          },
          cwd: '/',
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'ignore'],
        },
      );
      expect(loaded.trim()).toBe('function');
    }
  });
});

describe('the reference function bundle', () => {
  it('serves Swagger UI from the files beside it, without node_modules', () => {
    const app = new App({ context: { stage: 'bundle-test' } });
    new ContentRepositoryStack(app, 'Docs', { stage: stageSettings((k) => app.node.tryGetContext(k)) });
    const assembly = app.synth();
    const dir = readdirSync(assembly.directory)
      .map((d) => join(assembly.directory, d))
      .find((d) => existsSync(join(d, BUNDLED_ASSET_DIR)));
    const event = {
      version: '2.0',
      rawPath: '/api/v1/swagger/swagger-ui.css',
      rawQueryString: '',
      headers: {},
      pathParameters: { file: 'swagger-ui.css' },
      requestContext: { requestId: 'r1', http: { method: 'GET', path: '/api/v1/swagger/swagger-ui.css' } },
      isBase64Encoded: false,
    };
    const script = `const { handler } = await import(${JSON.stringify(join(dir as string, 'index.mjs'))});
const result = await handler(${JSON.stringify(event)}, {});
console.log(JSON.stringify({ status: result.statusCode, type: result.headers['content-type'], bytes: Buffer.from(result.body, 'base64').length }));`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      env: {
        PATH: process.env.PATH,
        TABLE_NAME: 't',
        BUCKET_NAME: 'b',
        TOKEN_SIGNING_KEY_ID: 'k',
        AWS_REGION: 'eu-west-1',
        LOG_LEVEL: 'silent',
      },
      cwd: '/',
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const result = JSON.parse(out.trim());
    expect(result).toMatchObject({ status: 200, type: 'text/css; charset=utf-8' });
    expect(result.bytes).toBeGreaterThan(10_000);
  });
});
