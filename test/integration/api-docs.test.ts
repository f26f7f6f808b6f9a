import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '#shared/api/openapi.ts';
import { type ApiClient, startTestStack, type TestStack } from './helpers/test-stack.ts';

let ctx: TestStack;
let api: ApiClient;
beforeAll(async () => {
  ctx = await startTestStack();
  api = ctx.api;
});
afterAll(() => ctx.close());

describe('the interactive reference', () => {
  it('redirects /api/v1/swagger to /api/v1/swagger/, which serves the Swagger UI page without a token', async () => {
    const bare = await api.call('GET', '/api/v1/swagger');
    expect(bare.status).toBe(301);
    expect(bare.headers.get('location')).toBe('/api/v1/swagger/');
    const page = await api.call('GET', '/api/v1/swagger/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.text).toContain('<div id="swagger-ui">');
    expect(page.text).toContain('./swagger-ui-bundle.js');
    expect(page.text).not.toMatch(/https?:\/\//);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
  });

  it('serves the OpenAPI document generated from the route table', async () => {
    const response = await api.call('GET', '/api/v1/swagger/openapi.json');
    expect(response.status).toBe(200);
    expect(response.body).toEqual(JSON.parse(JSON.stringify(buildOpenApiDocument())));
  });

  it('takes no query parameters: any is a 400 naming it', async () => {
    for (const path of [
      '/api/v1/swagger/openapi.json',
      '/api/v1/swagger/',
      '/api/v1/swagger/swagger-ui.css',
    ]) {
      const response = await api.call('GET', `${path}?x=1`);
      expect(response.status, path).toBe(400);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      expect(response.body.errors).toEqual([
        expect.objectContaining({ in: 'query', path: '$.x', rule: 'unrecognized_key' }),
      ]);
    }
  });

  it('serves Swagger UI from swagger-ui-dist itself (no CDN), with its media types', async () => {
    const script = await api.call('GET', '/api/v1/swagger/swagger-ui-bundle.js');
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(script.text.length).toBeGreaterThan(500_000);
    const css = await api.call('GET', '/api/v1/swagger/swagger-ui.css');
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    const init = await api.call('GET', '/api/v1/swagger/swagger-initializer.js');
    expect(init.text).toContain("url: './openapi.json'");
  });

  it('answers 404 for any other file and 400 for a name that is not a file name', async () => {
    expect((await api.call('GET', '/api/v1/swagger/package.json')).status).toBe(404);
    expect((await api.call('GET', '/api/v1/swagger/..%2F..%2Fpackage.json')).status).toBe(400);
  });
});
