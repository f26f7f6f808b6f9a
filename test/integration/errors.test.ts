import { describe, expect, it } from 'vitest';
import { folder } from './helpers/library.ts';
import { type ApiClient, withAdminSession } from './helpers/test-stack.ts';

let api: ApiClient;
let token: string;
let environmentId: string;

withAdminSession((session) => {
  ({ api, token, environmentId } = session);
});

async function environmentCount() {
  return (await api.call('GET', '/api/v1/list?nodeType=ENVIRONMENT', { token })).body.totalRecords;
}

function expectProblem(
  response: { status: number; headers: Headers; body: any },
  status: number,
  code: string,
) {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  expect(response.body).toMatchObject({ status, code, type: expect.stringContaining('/problems/') });
  expect(response.body.requestId).toBe(response.headers.get('apigw-requestid'));
  expect(JSON.stringify(response.body)).not.toMatch(/at .*\.ts:\d+/);
}

describe('problem+json for every failure', () => {
  it('malformed JSON: 400, nothing created', async () => {
    const before = await environmentCount();
    const response = await api.call('POST', '/api/v1/items', {
      token,
      rawBody: '{"@type": "NodeElement", "nodeType": "ENVIRONMENT",',
      headers: { 'content-type': 'application/json' },
    });
    expectProblem(response, 400, 'MALFORMED_JSON');
    expect(await environmentCount()).toBe(before);
  });

  it('wrong content type: 415 naming the Content-Type header', async () => {
    const response = await api.call('POST', '/api/v1/items', {
      token,
      rawBody: JSON.stringify(folder(environmentId)),
      headers: { 'content-type': 'text/plain' },
    });
    expectProblem(response, 415, 'UNSUPPORTED_MEDIA_TYPE');
    expect(response.body.errors).toEqual([
      {
        in: 'header',
        path: '$.Content-Type',
        rule: 'media_type',
        message: expect.stringContaining('application/json'),
      },
    ]);
    // Only a refused content coding names the codings that are taken.
    expect(response.headers.get('accept-encoding')).toBeNull();
  });

  it('a body that is not an object: 400 naming the root', async () => {
    const response = await api.call('POST', '/api/v1/items', { token, body: [1, 2] });
    expectProblem(response, 400, 'VALIDATION_FAILED');
    expect(response.body.errors[0].path).toBe('$');
  });

  it('missing body: 400', async () => {
    const response = await api.call('POST', '/api/v1/items', {
      token,
      headers: { 'content-type': 'application/json' },
    });
    expectProblem(response, 400, 'VALIDATION_FAILED');
    expect(response.body.errors[0]).toMatchObject({ path: '$', rule: 'required' });
  });

  it('oversize JSON body: 413', async () => {
    const response = await api.call('POST', '/api/v1/items', {
      token,
      body: { ...folder(environmentId), richTextDescription: 'x'.repeat(300 * 1024) },
    });
    expectProblem(response, 413, 'PAYLOAD_TOO_LARGE');
  });

  it('a request over the 10 MB API Gateway limit: 413 before any handler runs', async () => {
    const response = await api.call('POST', '/api/v1/items', {
      token,
      rawBody: Buffer.alloc(11 * 1024 * 1024, 32),
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(413);
    expect(response.body.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('unknown route: 404; known path with the wrong method: 405 with Allow', async () => {
    const unknown = await api.call('GET', '/api/v1/nothing-here', { token });
    expectProblem(unknown, 404, 'ROUTE_NOT_FOUND');
    const wrongMethod = await api.call('PATCH', `/api/v1/items/${environmentId}`, { token, body: {} });
    expectProblem(wrongMethod, 405, 'METHOD_NOT_ALLOWED');
    expect(wrongMethod.headers.get('allow')).toBe('GET, PUT, DELETE');
    const postOnly = await api.call('GET', '/api/v1/items', { token });
    expectProblem(postOnly, 405, 'METHOD_NOT_ALLOWED');
    expect(postOnly.headers.get('allow')).toBe('POST');
  });

  it('an out-of-range page size: 400 naming the parameter', async () => {
    const page = await api.call('GET', '/api/v1/list?nodeType=ENVIRONMENT&pageSize=1001', { token });
    expectProblem(page, 400, 'VALIDATION_FAILED');
    expect(page.body.errors[0]).toMatchObject({ in: 'query', path: '$.pageSize' });
  });

  it('routes that declare no query or body take none: an unknown parameter or field is a 400 naming it', async () => {
    const missing = '6F1B2C3D-4E5F-4A6B-8C7D-9E0F1A2B3C4D';
    const cases: [string, string, unknown, string, string][] = [
      ['GET', '/api/v1/admin/settings?x=1', undefined, 'query', '$.x'],
      ['PUT', '/api/v1/users/me/password?x=1', { oldPassword: 'a', newPassword: 'b' }, 'query', '$.x'],
      ['DELETE', `/api/v1/admin/sessions/${missing}`, { a: 1 }, 'body', '$.a'],
      ['POST', `/api/v1/items/${missing}/restore`, { a: 1 }, 'body', '$.a'],
      ['DELETE', `/api/v1/trash/${missing}?x=1`, undefined, 'query', '$.x'],
    ];
    for (const [method, path, body, location, field] of cases) {
      const response = await api.call(method, path, { token, ...(body === undefined ? {} : { body }) });
      expectProblem(response, 400, 'VALIDATION_FAILED');
      expect(response.body.errors, `${method} ${path}`).toEqual([
        expect.objectContaining({ in: location, path: field, rule: 'unrecognized_key' }),
      ]);
    }
    // Without a body, or with {}, such a write goes on (here: to a 404, no such session).
    for (const body of [undefined, {}]) {
      const ended = await api.call('DELETE', `/api/v1/admin/sessions/${missing}`, {
        token,
        ...(body === undefined ? {} : { body }),
      });
      expectProblem(ended, 404, 'SESSION_NOT_FOUND');
    }
    // No route: the 404 is not turned into a 400 by the query.
    expectProblem(await api.call('GET', '/api/v1/nothing-here?x=1', { token }), 404, 'ROUTE_NOT_FOUND');
  });
});
