/** The reference documents exactly the route table, from the schemas that validate requests. */
import { describe, expect, it } from 'vitest';
import type * as z from 'zod/mini';
import { buildOpenApiDocument } from '#shared/api/openapi.ts';
import { OPERATION_LIST } from '#shared/api/operations/index.ts';
import { ROUTES } from '#shared/http/routes.ts';

const document = buildOpenApiDocument();
type Operation = {
  operationId: string;
  tags: string[];
  summary: string;
  security?: unknown[];
  parameters: { name: string; in: string; required: boolean }[];
  requestBody?: { content: Record<string, { examples?: Record<string, { value: unknown }> }> };
  responses: Record<string, { content?: Record<string, unknown> }>;
};
const operations = () =>
  Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ path, method, op: op as Operation })),
  );

describe('OpenAPI document', () => {
  it('is OpenAPI 3.1 with both security schemes', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.components.securitySchemes).sort()).toEqual(['bearerAuth', 'cookieAuth']);
    expect(document.components.securitySchemes.cookieAuth).toMatchObject({
      type: 'apiKey',
      in: 'cookie',
      name: 'access_token',
    });
  });

  it('documents every route of the route table and nothing else', () => {
    const documented = operations().map(({ path, method }) => `${method.toUpperCase()} ${path}`);
    expect(documented.sort()).toEqual(ROUTES.map((r) => `${r.method} ${r.path}`).sort());
    const ids = operations().map(({ op }) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('tags every operation with a declared tag; Common, Action, User and one per object type are declared', () => {
    const tags = document.tags.map((t) => t.name);
    for (const name of [
      'Common',
      'Action',
      'User',
      'Capability',
      'Collaboration',
      'Control',
      'Document',
      'Glossary',
      'Master data',
      'Organization',
      'Performance',
      'Process',
      'Risk',
      'Rule',
    ]) {
      expect(tags).toContain(name);
    }
    for (const { op } of operations()) {
      expect(op.tags).toHaveLength(1);
      expect(tags).toContain(op.tags[0]);
    }
  });

  it('reads (GET, HEAD) take no body, and cannot fail as writes do (413, 415, cross-site 403)', () => {
    for (const { path, method, op } of operations()) {
      if (method !== 'get' && method !== 'head') continue;
      expect(op.requestBody, `${method} ${path}`).toBeUndefined();
      expect(Object.keys(op.responses), `${method} ${path}`).not.toContain('415');
    }
  });

  it('documents only the paging parameters for the maturity list, which refuses any other', () => {
    const maturity = operations().find(({ path }) => path === '/api/v1/governance/maturity-list');
    const op = maturity?.op as { parameters?: { name: string }[] } | undefined;
    const names = op?.parameters?.map((p) => p.name);
    expect(names).toEqual(['pageSize', 'currentPage', 'cursor']);
  });

  it('documents the Idempotency-Key and conditional headers where they are taken, with the 412', () => {
    const headersOf = (method: string, path: string) =>
      (
        operations().find((o) => o.method === method && o.path === path)?.op as
          | { parameters?: { name: string; in: string }[] }
          | undefined
      )?.parameters
        ?.filter((p) => p.in === 'header')
        .map((p) => p.name);
    expect(headersOf('put', '/api/v1/items/{nodeId}')).toEqual([
      'If-Match',
      'If-None-Match',
      'Idempotency-Key',
    ]);
    expect(headersOf('post', '/api/v1/process/nodes')).toEqual(['Idempotency-Key']);
    expect(headersOf('post', '/api/v1/items/{nodeId}/publish')).toEqual(['If-Match', 'If-None-Match']);
    expect(headersOf('get', '/api/v1/items/{nodeId}')).toEqual(['If-Match', 'If-None-Match']);
    expect(headersOf('get', '/api/v1/document/documents/{documentId}')).toEqual(['If-Match']);
    expect(headersOf('get', '/api/v1/document/documents/{documentId}/content')).toEqual([
      'If-Match',
      'If-None-Match',
    ]);
    expect(headersOf('get', '/api/v1/list')).toEqual([]);
    const responsesOf = (method: string, path: string) =>
      Object.keys(operations().find((o) => o.method === method && o.path === path)?.op.responses ?? {});
    expect(responsesOf('delete', '/api/v1/items/{nodeId}')).toContain('412');
    expect(responsesOf('get', '/api/v1/document/documents/{documentId}/content')).toContain('412');
    expect(responsesOf('get', '/api/v1/list')).not.toContain('412');
  });

  it('documents every media type a BPMN import takes', () => {
    const imports = operations().find(({ path, method }) => method === 'post' && path.endsWith('/bpmn'));
    expect(Object.keys(imports?.op.requestBody?.content ?? {})).toEqual([
      'application/xml',
      'text/xml',
      'application/bpmn+xml',
    ]);
  });

  it('answers problem+json for the failures of every operation', () => {
    for (const { path, method, op } of operations()) {
      const failures = Object.entries(op.responses).filter(([status]) => Number(status) >= 400);
      expect(failures.length, `${method} ${path}`).toBeGreaterThan(0);
      // A HEAD's answers have no body, failures included.
      for (const [, response] of failures)
        expect(Object.keys(response.content ?? {})).toEqual(
          method === 'head' ? [] : ['application/problem+json'],
        );
    }
  });

  it('declares login and the reference public, everything else behind a token that may be refused (401)', () => {
    for (const { path, method, op } of operations()) {
      const route = ROUTES.find((r) => r.path === path && r.method === method.toUpperCase());
      const isPublic = route !== undefined && 'authenticated' in route.operation;
      expect(op.security, `${method} ${path}`).toEqual(isPublic ? [] : undefined);
      if (!isPublic) expect(op.responses['401']).toBeDefined();
    }
  });

  it('documents path parameters as required and query parameters as the schemas say', () => {
    const get = document.paths['/api/v1/items/{nodeId}']?.get as Operation;
    expect(get.parameters).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'nodeId', in: 'path', required: true }),
        expect.objectContaining({ name: 'draft', in: 'query', required: false }),
        expect.objectContaining({ name: 'detail', in: 'query', required: false }),
      ]),
    );
    const list = document.paths['/api/v1/list']?.get as Operation;
    expect(list.parameters.find((p) => p.name === 'sortKey')?.required).toBe(false);
    expect(list.parameters.some((p) => p.in === 'path')).toBe(false);
    const children = document.paths['/api/v1/list/{nodeId}']?.get as Operation;
    expect(children.parameters).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'nodeId', in: 'path', required: true })]),
    );
  });

  it('gives request examples that the request schemas accept', () => {
    for (const { name, request: declared } of OPERATION_LIST) {
      const request = declared as {
        body?: z.ZodMiniType;
        examples?: Record<string, { value: unknown }>;
      };
      for (const [example, { value }] of Object.entries(request.examples ?? {})) {
        expect(request.body?.safeParse(value).success, `${name}/${example}`).toBe(true);
      }
    }
    const create = document.paths['/api/v1/items']?.post as Operation;
    expect(Object.keys(create.requestBody?.content['application/json']?.examples ?? {})).toEqual(
      expect.arrayContaining(['documentFolder', 'process', 'urlDocument']),
    );
  });
});
