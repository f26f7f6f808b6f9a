/** The one test that bundles: every function's real ESM bundle loads in a fresh Node process. */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { ContentRepositoryStack } from '#infra/stacks/content-repository-stack.ts';
import { stageSettings } from '#infra/stage.ts';
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
    for (const dir of bundles) {
      expect(readdirSync(dir)).toEqual(['index.mjs']);
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
