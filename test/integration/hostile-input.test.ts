/**
 * Requests a careless or hostile client sends: dot segments, malformed percent-encoding, deep or odd JSON,
 * names that exist on every JavaScript object. Each is answered with a 4xx problem+json, and changes nothing.
 */
import { describe, expect, it } from 'vitest';
import { ROUTES } from '#shared/http/routes.ts';
import { createNode, folder, urlDocument } from './helpers/library.ts';
import { createUser, grant } from './helpers/personas.ts';
import { type ApiClient, type ApiResponse, withAdminSession } from './helpers/test-stack.ts';

let api: ApiClient;
let token: string;
let environmentId: string;
let folderId: string;
let documentId: string;
let readerId: string;

withAdminSession(async (session) => {
  ({ api, token, environmentId } = session);
  folderId = (await createNode(api, token, folder(environmentId, 'Guarded'))).nodeId;
  documentId = (await createNode(api, token, urlDocument(folderId, 'Kept'))).nodeId;
  readerId = await createUser(api, token, 'guarded-reader');
  await grant(api, token, folderId, readerId, 'READER');
});

function expectProblem(response: ApiResponse<any>, status: number) {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  expect(response.body.status).toBe(status);
}

/** What a rejected write must leave alone: the folder, its document and the grant on it. */
async function unchanged() {
  const kept = await api.call('GET', `/api/v1/items/${folderId}`, { token });
  expect(kept.status).toBe(200);
  expect(kept.body).toMatchObject({ name: 'Guarded', deleted: false, version: '0.0001' });
  const children = await api.call('GET', `/api/v1/list/${folderId}`, { token });
  expect(children.body.results.map((n: { nodeId: string }) => n.nodeId)).toEqual([documentId]);
  const grants = await api.call('GET', `/api/v1/items/${folderId}/grants`, { token });
  expect(grants.body.results.map((g: { principalId: string }) => g.principalId)).toEqual([readerId]);
}

const environmentTotal = async () =>
  (await api.call('GET', `/api/v1/list?nodeType=DOCUMENT_SET`, { token })).body.totalRecords as number;

describe('paths are taken literally, as API Gateway takes them', () => {
  it('a grant revoke with .. as the principal never reaches the folder delete', async () => {
    for (const segment of ['..', '%2e%2e', '%2E%2E/', '.', '%2e']) {
      const response = await api.call('DELETE', `/api/v1/items/${folderId}/grants/${segment}`, { token });
      expectProblem(response, 400);
      expect(response.body.errors).toEqual([expect.objectContaining({ in: 'path', path: '$.principalId' })]);
    }
    await unchanged();
  });

  it('a grant with %2E%2E as the principal never renames the node', async () => {
    const rename = { ...folder(environmentId, 'Renamed'), nodeId: folderId, nodeVersionId: 'x' };
    const response = await api.call('PUT', `/api/v1/items/${folderId}/grants/%2E%2E`, {
      token,
      body: rename,
    });
    expectProblem(response, 400);
    await unchanged();
  });

  it('dot segments lead to no other route', async () => {
    for (const path of ['/api/v1/items/%2e%2e/admin/users', '/api/v1/items/../admin/users']) {
      const response = await api.call('GET', path, { token });
      expectProblem(response, 404);
      expect(response.body.code).toBe('ROUTE_NOT_FOUND');
    }
    expectProblem(await api.call('GET', '/api/v1/list/..', { token }), 400);
    expectProblem(await api.call('GET', `/api/v1/items/${documentId}/..`, { token }), 404);
  });

  it('every path parameter that is not an identifier of its kind is a 400 naming it', async () => {
    // Every path parameter is an identifier of a kind (a UUID), but for the reference's file names and the
    // upload identifiers, which the uploader chooses (any 1-200 characters).
    const routes = ROUTES.filter(
      (route) =>
        /\{\w+\}/.test(route.path) && !route.path.includes('swagger') && !route.path.includes('{identifier}'),
    );
    for (const route of routes) {
      const path = route.path.replace(/\{(\w+)\}/g, 'not-an-id');
      const { request } = route.operation;
      const mediaType =
        ('bodyFormat' in request ? request.bodyFormat.mediaType : undefined) ?? 'application/json';
      const response = await api.call(route.method, path, {
        token,
        ...(route.method === 'GET' || route.method === 'DELETE'
          ? {}
          : mediaType === 'application/json'
            ? { body: {} }
            : { rawBody: '<definitions/>', headers: { 'content-type': mediaType } }),
      });
      // A HEAD is answered without a body: its status says it all.
      if (route.method === 'HEAD') {
        expect(response.status, `HEAD ${path}`).toBe(400);
        continue;
      }
      expectProblem(response, 400);
      expect(response.body.errors.some((e: { in: string }) => e.in === 'path')).toBe(true);
    }
  });
});

describe('malformed percent-encoding', () => {
  it('in a path parameter, on every route: 400, never 500', async () => {
    for (const route of ROUTES.filter((r) => /\{\w+\}/.test(r.path))) {
      for (const bad of ['%E0%A4%A', '%', '%zz', '%C0%AF']) {
        const response = await api.call(route.method, route.path.replace(/\{(\w+)\}/g, bad), { token });
        if (route.method === 'HEAD') expect(response.status).toBe(400);
        else expectProblem(response, 400);
      }
    }
  });

  it('in the query string: 400 naming the parameter', async () => {
    const value = await api.call('GET', '/api/v1/list?name=%E0%A4%A', { token });
    expectProblem(value, 400);
    expect(value.body.errors).toEqual([
      expect.objectContaining({ in: 'query', path: '$.name', rule: 'percent_encoding' }),
    ]);
    expectProblem(await api.call('GET', '/api/v1/list?%zz=1', { token }), 400);
    expectProblem(await api.call('GET', `/api/v1/items/${documentId}?draft=%FF`, { token }), 400);
  });

  it('on an unknown path: 400 as well', async () => {
    expectProblem(await api.call('GET', '/api/v1/nowhere/%E0%A4%A', { token }), 400);
  });
});

describe('a query parameter sent twice', () => {
  it('is a 400 naming it (the gateway would join the values with a comma), unless it may repeat', async () => {
    const twice = await api.call('GET', `/api/v1/items/${documentId}?draft=true&draft=true`, { token });
    expectProblem(twice, 400);
    expect(twice.body.errors).toEqual([
      expect.objectContaining({ in: 'query', path: '$.draft', rule: 'repeated' }),
    ]);
    // Named once however it was misjudged, beside the other parameters' own errors.
    const listed = await api.call('GET', '/api/v1/list?pageSize=5&pageSize=6&order=UP', { token });
    expectProblem(listed, 400);
    expect(listed.body.errors).toEqual([
      expect.objectContaining({ path: '$.pageSize', rule: 'repeated' }),
      expect.objectContaining({ path: '$.order' }),
    ]);
    const diagram = await api.call(
      'POST',
      `/api/v1/process/nodes?process=${documentId}&process=${documentId}`,
      { token, body: [] },
    );
    expectProblem(diagram, 400);
    expect(diagram.body.errors).toEqual([
      expect.objectContaining({ in: 'query', path: '$.process', rule: 'repeated' }),
    ]);
    // nodeType may repeat: each value is one of the types asked for.
    const types = await api.call('GET', '/api/v1/list?nodeType=DOCUMENT&nodeType=DOCUMENT_SET', { token });
    expect(types.status).toBe(200);
    await unchanged();
  });
});

describe('JSON bodies', () => {
  const create = (extensions: unknown, extra: Record<string, unknown> = {}) =>
    api.call('POST', '/api/v1/items', {
      token,
      body: { ...folder(environmentId, 'Odd'), extensions, ...extra },
    });

  it(`nested deeper than 20 levels: 400 naming where, nothing created`, async () => {
    const before = await environmentTotal();
    const deep = `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`;
    const response = await api.call('POST', '/api/v1/items', {
      token,
      rawBody: JSON.stringify(folder(environmentId, 'Deep')).replace(/}$/, `, "extensions": ${deep}}`),
      headers: { 'content-type': 'application/json' },
    });
    expectProblem(response, 400);
    expect(response.body.errors).toEqual([expect.objectContaining({ rule: 'max_depth' })]);
    expect(response.body.errors[0].path).toMatch(/^\$\.extensions(\.a)+$/);
    expect(await environmentTotal()).toBe(before);
  });

  it('numbers DynamoDB cannot store exactly: 400 naming each field, nothing created', async () => {
    const before = await environmentTotal();
    const cases: [string, string][] = [
      ['"big": 1234567890123456789012345678901234567890', '$.extensions.big'],
      ['"over": 1e400', '$.extensions.over'],
      ['"tiny": 1e-200', '$.extensions.tiny'],
      ['"underflow": 1e-400', '$.extensions.underflow'],
      ['"underflowing": -0.5e-330', '$.extensions.underflowing'],
      ['"huge": 1e200', '$.extensions.huge'],
      ['"digits": 0.12345678901234567', '$.extensions.digits'],
      ['"list": [1, 2, 9007199254740993]', '$.extensions.list[2]'],
    ];
    for (const [member, path] of cases) {
      const body = JSON.stringify(folder(environmentId, 'Numbers')).replace(
        /}$/,
        `, "extensions": {${member}}}`,
      );
      const response = await api.call('POST', '/api/v1/items', {
        token,
        rawBody: body,
        headers: { 'content-type': 'application/json' },
      });
      expectProblem(response, 400);
      expect(response.body.errors).toEqual([expect.objectContaining({ path, rule: 'number' })]);
    }
    expect(await environmentTotal()).toBe(before);
  });

  it('a key given twice in one object: 400 naming it, nothing created (the last would win silently)', async () => {
    const before = await environmentTotal();
    /** The folder's JSON with `members` added at its end. */
    const withMembers = (name: string, members: string) =>
      JSON.stringify(folder(environmentId, name)).replace(/}$/, `, ${members}}`);
    const cases: [string, string][] = [
      [withMembers('First', '"name": "Second"'), '$.name'],
      [withMembers('Listed', '"extensions": {"list": [{"a": 1, "b": 2, "a": 3}]}'), '$.extensions.list[0].a'],
    ];
    for (const [rawBody, path] of cases) {
      const response = await api.call('POST', '/api/v1/items', {
        token,
        rawBody,
        headers: { 'content-type': 'application/json' },
      });
      expectProblem(response, 400);
      expect(response.body.errors).toEqual([expect.objectContaining({ path, rule: 'repeated_key' })]);
    }
    expect(await environmentTotal()).toBe(before);
    // The same key with the same value twice loses nothing: taken.
    const same = await api.call('POST', '/api/v1/items', {
      token,
      rawBody: withMembers('Same', '"name": "Same"'),
      headers: { 'content-type': 'application/json' },
    });
    expect(same.status).toBe(200);
  });

  it('keys JavaScript gives a meaning of their own are refused, never dropped', async () => {
    for (const key of ['__proto__', 'constructor', 'prototype']) {
      const body = JSON.stringify(folder(environmentId, 'Keys')).replace(
        /}$/,
        `, "extensions": {"kept": 1, "${key}": {"polluted": true}}}`,
      );
      const response = await api.call('POST', '/api/v1/items', {
        token,
        rawBody: body,
        headers: { 'content-type': 'application/json' },
      });
      expectProblem(response, 400);
      expect(response.body.errors).toEqual([
        expect.objectContaining({ path: `$.extensions.${key}`, rule: 'reserved_key' }),
      ]);
    }
    const query = await api.call('GET', '/api/v1/list?__proto__=1', { token });
    expectProblem(query, 400);
    expect(query.body.errors).toEqual([expect.objectContaining({ in: 'query', rule: 'unrecognized_key' })]);
  });

  it('a body that is not UTF-8, or a string with a lone surrogate: 400', async () => {
    const bytes = Buffer.concat([
      Buffer.from('{"@type":"NodeElement","nodeType":"DOCUMENT_SET","name":"'),
      Buffer.from([0xc3, 0x28]),
      Buffer.from(`","parent":{"nodeId":"${environmentId}"}}`),
    ]);
    const invalid = await api.call('POST', '/api/v1/items', {
      token,
      rawBody: bytes,
      headers: { 'content-type': 'application/json' },
    });
    expectProblem(invalid, 400);
    expect(invalid.body.code).toBe('MALFORMED_JSON');
    const surrogate = await api.call('POST', '/api/v1/items', {
      token,
      rawBody: JSON.stringify(folder(environmentId, 'x')).replace('"name":"x"', '"name":"a\\ud800b"'),
      headers: { 'content-type': 'application/json' },
    });
    expectProblem(surrogate, 400);
    expect(surrogate.body.errors).toEqual([expect.objectContaining({ path: '$.name', rule: 'unicode' })]);
  });

  it('a body in another charset or a content coding: 415, nothing created; charset=utf-8 is taken', async () => {
    const before = await environmentTotal();
    const rawBody = Buffer.from(JSON.stringify(folder(environmentId, 'Café')));
    // Each with the header the answer names, and the rule it breaks.
    const charset = { in: 'header', path: '$.Content-Type', rule: 'charset' };
    const coding = { in: 'header', path: '$.Content-Encoding', rule: 'content_coding' };
    const refusedHeaders: [Record<string, string>, typeof charset][] = [
      [{ 'content-type': 'application/json; charset=iso-8859-1' }, charset],
      // A type that cannot be read names its charset twice: not taken for UTF-8.
      [{ 'content-type': 'application/json; charset=iso-8859-1; charset=iso-8859-1' }, charset],
      [{ 'content-type': 'application/json; charset="UTF-16"' }, charset],
      [{ 'content-type': 'application/json', 'content-encoding': 'gzip' }, coding],
      [{ 'content-type': 'application/json', 'content-encoding': 'identity, br' }, coding],
    ];
    for (const [headers, named] of refusedHeaders) {
      const refused = await api.call('POST', '/api/v1/items', { token, rawBody, headers });
      expectProblem(refused, 415);
      expect(refused.body.code).toBe('UNSUPPORTED_MEDIA_TYPE');
      expect(refused.body.errors).toEqual([expect.objectContaining(named)]);
      // RFC 7694 §3: a body refused for its coding is answered with the codings that are taken.
      expect(refused.headers.get('accept-encoding')).toBe(named === coding ? 'identity' : null);
    }
    const chunk = await api.call(
      'POST',
      `/upload/?${new URLSearchParams({ resumableIdentifier: 'coded', resumableFilename: 'a.txt', resumableChunkNumber: '1', resumableChunkSize: '1', resumableTotalSize: '1' })}`,
      {
        token,
        rawBody: Buffer.from('plain'),
        headers: { 'content-type': 'text/plain', 'content-encoding': 'gzip' },
      },
    );
    expectProblem(chunk, 415);
    expect(chunk.body.errors).toEqual([expect.objectContaining(coding)]);
    expect(chunk.headers.get('accept-encoding')).toBe('identity');
    expect((await api.call('GET', '/api/v1/uploads/coded', { token })).status).toBe(404);
    expect(await environmentTotal()).toBe(before);
    for (const contentType of ['application/json; charset=utf-8', 'application/json;charset="UTF-8"']) {
      const taken = await api.call('POST', '/api/v1/items', {
        token,
        rawBody,
        headers: { 'content-type': contentType, 'content-encoding': 'identity' },
      });
      expect(taken.status).toBe(200);
      expect(taken.body.name).toBe('Café');
    }
  });

  it('a name with a control character: 400 naming it, nothing created; tabs and line breaks are kept', async () => {
    for (const name of ['nul\u0000here', 'escape\u001b[31m', 'delete\u007f', 'c1 csi\u009b31m']) {
      const refused = await api.call('POST', '/api/v1/items', { token, body: folder(environmentId, name) });
      expectProblem(refused, 400);
      expect(refused.body.errors).toEqual([
        expect.objectContaining({ path: '$.name', rule: 'control_characters' }),
      ]);
    }
    const listed = await api.call('GET', `/api/v1/list/${environmentId}?pageSize=1000`, { token });
    expect(
      (listed.body.results as { name: string }[]).some((e) => /nul|escape|delete|csi/.test(e.name)),
    ).toBe(false);
    const kept = await create({}, { name: 'Two\tlines\r\nof a label' });
    expect(kept.status).toBe(200);
    expect(kept.body.name).toBe('Two\tlines\r\nof a label');
  });

  it('a URL is taken as sent or refused, never trimmed or cleaned into another one', async () => {
    for (const url of [
      ' https://docs.example/a',
      'https://docs.example/a b',
      'https://docs.example/\u202eexe.txt',
      'https://docs.example/\u0000',
    ]) {
      for (const [path, body] of [
        ['/api/v1/items', { ...urlDocument(folderId, 'Linked'), url }],
        ['/api/v1/webhooks', { url, enabled: false }],
      ] as const) {
        const refused = await api.call('POST', path, { token, body });
        expectProblem(refused, 400);
        expect(refused.body.errors, `${path} ${JSON.stringify(url)}`).toEqual([
          expect.objectContaining({ path: '$.url', rule: 'url_characters' }),
        ]);
      }
    }
    await unchanged();
    const hooks = await api.call('GET', '/api/v1/webhooks', { token });
    expect(hooks.body.results).toEqual([]);
  });

  it('other text people read refuses control characters too, and a user name cannot be blank', async () => {
    const bad = 'a\u0000b';
    const refusals: [string, string, unknown, string, string][] = [
      [
        'POST',
        '/api/v1/admin/users',
        { username: 'ctl-user', password: 'a-long-password-1', name: bad },
        '$.name',
        'control_characters',
      ],
      [
        'POST',
        '/api/v1/admin/users',
        { username: 'ctl-user', password: 'a-long-password-1', name: '   ' },
        '$.name',
        'not_blank',
      ],
      [
        'POST',
        '/api/v1/admin/users',
        { username: 'ctl-user', password: 'a-long-password-1', name: '\u200b\u00a0' },
        '$.name',
        'not_blank',
      ],
      [
        'POST',
        '/api/v1/admin/users',
        { username: 'ctl-user', password: 'a-long-password-1', phone: bad },
        '$.phone',
        'control_characters',
      ],
      [
        'POST',
        '/api/v1/admin/actions',
        {
          actionType: 'ACKNOWLEDGEMENT',
          targetNodeId: documentId,
          users: [readerId],
          dueDate: '2027-01-10',
          comment: bad,
        },
        '$.comment',
        'control_characters',
      ],
      [
        'POST',
        '/api/v1/items',
        { ...folder(environmentId, 'Referenced'), referenceNumber: `R-\u001b1` },
        '$.referenceNumber',
        'control_characters',
      ],
      [
        'POST',
        '/api/v1/items',
        { ...folder(environmentId, 'Described'), richTextDescription: '<p>a\u0000b</p>' },
        '$.richTextDescription',
        'control_characters',
      ],
    ];
    for (const [method, path, body, field, rule] of refusals) {
      const refused = await api.call(method, path, { token, body });
      expectProblem(refused, 400);
      expect(refused.body.errors).toEqual([expect.objectContaining({ path: field, rule })]);
    }
    const users = await api.call('GET', '/api/v1/admin/users?pageSize=1000', { token });
    expect(users.body.results.some((u: { username: string }) => u.username === 'ctl-user')).toBe(false);
    await unchanged();
    // Tabs and line breaks are text: a comment of two lines is taken.
    const twoLines = await api.call('POST', '/api/v1/admin/actions', {
      token,
      body: {
        actionType: 'ACKNOWLEDGEMENT',
        targetNodeId: documentId,
        users: [readerId],
        dueDate: '2027-01-10',
        comment: 'line one\nline two',
      },
    });
    expect(twoLines.status).toBe(201);
  });

  it('what a client may send is kept exactly: ordinary keys, exact numbers, any Unicode', async () => {
    const extensions = {
      count: 9007199254740991,
      ratio: 0.1,
      small: 1e-100,
      nested: { list: [1, 'é', null] },
      '😀': true,
    };
    const created = await create(extensions, { name: 'Exact 😀' });
    expect(created.status).toBe(200);
    const read = await api.call('GET', `/api/v1/items/${created.body.nodeId}`, { token });
    expect(read.body.extensions).toEqual(extensions);
    expect(read.body.name).toBe('Exact 😀');
  });
});

describe('names that exist on every JavaScript object', () => {
  it('are no file of the reference: 404', async () => {
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf']) {
      const response = await api.call('GET', `/api/v1/swagger/${name}`);
      expectProblem(response, 404);
    }
  });
});

describe('cursors a client changed', () => {
  /** The cursor with its position's sort key replaced (the cursor is base64url JSON, its position JSON too). */
  function withSortKey(cursor: string, sortKey: string): string {
    const decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    const position = JSON.parse(decoded.a);
    const name =
      'SK' in position ? 'SK' : (Object.keys(position).find((key) => key.endsWith('SK')) as string);
    return Buffer.from(
      JSON.stringify({ ...decoded, a: JSON.stringify({ ...position, [name]: sortKey }) }),
    ).toString('base64url');
  }

  it('a position outside the list, or an empty key: 400 naming the cursor, never 500', async () => {
    const versioned = await createNode(api, token, urlDocument(folderId, 'Versioned'));
    for (const name of ['Versioned 2', 'Versioned 3']) {
      const read = await api.call('GET', `/api/v1/items/${versioned.nodeId}`, { token });
      const updated = await api.call('PUT', `/api/v1/items/${versioned.nodeId}`, {
        token,
        body: { ...read.body, name },
      });
      expect(updated.status, updated.text).toBe(200);
    }
    for (const name of ['Binned 1', 'Binned 2']) {
      const binned = await createNode(api, token, urlDocument(folderId, name));
      expect((await api.call('DELETE', `/api/v1/items/${binned.nodeId}`, { token, body: {} })).status).toBe(
        200,
      );
    }
    for (const list of [
      `/api/v1/items/${versioned.nodeId}/versions`,
      '/api/v1/trash',
      '/api/v1/admin/users',
    ]) {
      // The first cursor whose position is a key (the versions' first page ends with the working copy).
      let cursor: string | undefined;
      for (let page = 0, at = ''; page < 3 && !cursor; page++) {
        const answer = await api.call('GET', `${list}?pageSize=1${at}`, { token });
        expect(answer.status, answer.text).toBe(200);
        const next = answer.body.nextCursor as string;
        const position = JSON.parse(Buffer.from(next, 'base64url').toString('utf8')).a as string;
        if (position.startsWith('{')) cursor = next;
        at = `&cursor=${next}`;
      }
      if (!cursor) throw new Error(`${list}: no cursor names a key`);
      const empty = await api.call('GET', `${list}?pageSize=1&cursor=${withSortKey(cursor, '')}`, { token });
      expectProblem(empty, 400);
      expect(empty.body.errors[0], list).toMatchObject({ in: 'query', path: '$.cursor', rule: 'cursor' });
      // Past every key: where a list's keys share a prefix, a 400; else a position like any other.
      const beyond = await api.call('GET', `${list}?pageSize=1&cursor=${withSortKey(cursor, 'ZZZ')}`, {
        token,
      });
      if (beyond.status !== 200) {
        expect(beyond.body.errors?.[0], `${list}: ${beyond.text}`).toMatchObject({ path: '$.cursor' });
      }
    }
  });
});
