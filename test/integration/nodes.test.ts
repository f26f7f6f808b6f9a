import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { NODE_TYPES } from '#shared/domain/node-types.ts';
import { createNode, folder, urlDocument } from './helpers/library.ts';
import { createUser, grant, PASSWORD } from './helpers/personas.ts';
import { type ApiClient, type TestStack, tableClient, withAdminSession } from './helpers/test-stack.ts';

const UPPER_UUID = /^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$/;
const MILLIS_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}(Z|[+-]\d{2}:\d{2})$/;

let api: ApiClient;
let token: string;
let environmentId: string;
let ctx: TestStack;

withAdminSession((session) => {
  ({ api, token, environmentId, ctx } = session);
});

describe('POST /api/v1/items', () => {
  it('creates a first-level document folder as a spec §2.1 BaseElement', async () => {
    const response = await api.call('POST', '/api/v1/items?draft=true', {
      token,
      body: folder(environmentId),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('etag')).toBe(`W/"${response.body.nodeVersionId}"`);
    expect(response.body).toEqual({
      '@type': 'BaseElement',
      nodeId: expect.stringMatching(UPPER_UUID),
      nodeVersionId: expect.stringMatching(UPPER_UUID),
      nodeType: 'DOCUMENT_SET',
      name: 'Policies',
      version: '0.0001',
      creationDate: expect.stringMatching(MILLIS_ISO),
      modificationDate: expect.stringMatching(MILLIS_ISO),
      nodeStatus: 'IN_PROGRESS',
      publishedNodeVersionId: null,
      nodeSubType: null,
      nodeSubTypeName: null,
      userNodeSubType: null,
      extensions: null,
      deleted: false,
      system: false,
      locked: false,
      favorite: false,
      referenceNumber: null,
    });
    expect(response.body.creationDate).toBe(response.body.modificationDate);
  });

  it('creates a URL document in a folder, and a process in a process folder', async () => {
    const documents = await createNode(api, token, folder(environmentId, 'Manuals'));
    const document = await createNode(api, token, urlDocument(documents.nodeId));
    expect(document).toMatchObject({ nodeType: 'DOCUMENT', version: '0.0001', nodeStatus: 'IN_PROGRESS' });

    const processes = await createNode(api, token, {
      parent: { nodeId: environmentId },
      '@type': 'NodeElement',
      nodeType: 'PROCESS_SET',
      name: 'Core processes',
    });
    const process = await createNode(api, token, {
      parent: { nodeId: processes.nodeId },
      '@type': 'Process',
      nodeType: 'PROCESS',
      name: 'Order to cash',
    });
    expect(process.nodeType).toBe('PROCESS');
  });

  it('creates every object type of the catalogue under an allowed parent', async () => {
    const created = new Map<string, string>([['ENVIRONMENT', environmentId]]);
    const detail = await api.call('GET', `/api/v1/items/${environmentId}?detail=true`, { token });
    for (const [rootType, rootId] of Object.entries(detail.body.systemRoots as Record<string, string>)) {
      created.set(rootType, rootId);
    }
    const pending = NODE_TYPES.filter((t) => !t.systemRoot && t.nodeType !== 'ENVIRONMENT');
    // Parents first: keep going round until every type found a parent that already exists.
    while (pending.length > 0) {
      const index = pending.findIndex((t) => t.parents.some((p) => created.has(p)));
      expect(index, `no parent available for ${pending.map((t) => t.nodeType)}`).toBeGreaterThanOrEqual(0);
      const [type] = pending.splice(index, 1);
      if (!type) break;
      const parentType = type.parents.find((p) => created.has(p)) as string;
      const extra =
        type.nodeType === 'DOCUMENT' ? { documentType: 'URL', url: 'https://example.com/doc' } : {};
      const node = await createNode(api, token, {
        parent: { nodeId: created.get(parentType) },
        '@type': type.payloadType,
        nodeType: type.nodeType,
        name: `A ${type.description}`,
        ...extra,
      });
      expect(node.nodeType).toBe(type.nodeType);
      created.set(type.nodeType, node.nodeId);
    }
  });

  it('places items of a facet under the environment’s system root when the environment is named as parent', async () => {
    const term = await createNode(api, token, {
      parent: { nodeId: environmentId },
      '@type': 'Term',
      nodeType: 'TERM',
      name: 'Lead time',
    });
    const detail = await api.call('GET', `/api/v1/items/${term.nodeId}?detail=true`, { token });
    const environment = await api.call('GET', `/api/v1/items/${environmentId}?detail=true`, { token });
    expect(detail.body.parent).toEqual({ nodeId: environment.body.systemRoots.GLOSSARY_ROOT });
  });

  it('refuses a wrong parent type with a 400 naming the allowed ones, and creates nothing', async () => {
    const documents = await createNode(api, token, folder(environmentId, 'Wrong place'));
    const response = await api.call('POST', '/api/v1/items', {
      token,
      body: {
        parent: { nodeId: documents.nodeId },
        '@type': 'Process',
        nodeType: 'PROCESS',
        name: 'Misplaced',
      },
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(response.body).toMatchObject({ status: 400, code: 'INVALID_PARENT_TYPE' });
    expect(response.body.detail).toContain('allowed parent types: PROCESS_SET');
    expect(response.body.errors).toEqual([
      expect.objectContaining({ path: '$.parent.nodeId', rule: 'parent_type' }),
    ]);
  });

  it('refuses an unknown parent, a missing parent and a mismatched @type, naming the field', async () => {
    const unknown = await api.call('POST', '/api/v1/items', {
      token,
      body: folder('00000000-0000-4000-8000-000000000000'),
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('PARENT_NOT_FOUND');
    expect(unknown.body.errors).toEqual([expect.objectContaining({ path: '$.parent.nodeId' })]);

    const { parent: _parent, ...orphan } = folder(environmentId);
    const missing = await api.call('POST', '/api/v1/items', { token, body: orphan });
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual([expect.objectContaining({ path: '$.parent', rule: 'required' })]);

    const mistyped = await api.call('POST', '/api/v1/items', {
      token,
      body: { ...folder(environmentId), '@type': 'Process' },
    });
    expect(mistyped.status).toBe(400);
    expect(mistyped.body.errors[0]).toMatchObject({ path: '$["@type"]', rule: 'type_mismatch' });
    expect(mistyped.body.errors[0].message).toContain('"NodeElement"');
  });

  it('reports every missing or mistyped field with its JSON path', async () => {
    const response = await api.call('POST', '/api/v1/items', {
      token,
      body: {
        parent: { nodeId: 42 },
        '@type': 'NodeElement',
        nodeType: 'FOLDERISH',
        name: '',
        colour: 'red',
      },
    });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('VALIDATION_FAILED');
    const paths = response.body.errors.map((e: { path: string }) => e.path).sort();
    expect(paths).toEqual(['$.colour', '$.name', '$.nodeType', '$.parent.nodeId']);
    expect(response.body.errors.find((e: { path: string }) => e.path === '$.colour').rule).toBe(
      'unrecognized_key',
    );
  });

  it('refuses a FILE document whose upload the caller does not have, naming fileInfo.uploadIdentifier', async () => {
    const documents = await createNode(api, token, folder(environmentId, 'Files'));
    const response = await api.call('POST', '/api/v1/items', {
      token,
      body: {
        parent: { nodeId: documents.nodeId },
        '@type': 'Document',
        nodeType: 'DOCUMENT',
        name: 'Scan',
        documentType: 'FILE',
        fileInfo: { uploadIdentifier: 'abc', name: 'scan.pdf' },
      },
    });
    expect(response.status).toBe(404);
    expect(response.body.code).toBe('UPLOAD_NOT_FOUND');
    expect(response.body.errors).toEqual([
      expect.objectContaining({ path: '$.fileInfo.uploadIdentifier', rule: 'exists' }),
    ]);
    const { fileInfo: _fileInfo, ...withoutFile } = {
      parent: { nodeId: documents.nodeId },
      '@type': 'Document',
      nodeType: 'DOCUMENT',
      name: 'Scan',
      documentType: 'FILE',
      fileInfo: null,
    };
    const noFileInfo = await api.call('POST', '/api/v1/items', { token, body: withoutFile });
    expect(noFileInfo.status).toBe(400);
    expect(noFileInfo.body.errors).toEqual([
      expect.objectContaining({ path: '$.fileInfo', rule: 'required' }),
    ]);
  });

  it('requires an http(s) url for URL documents, intranet links included, and refuses system roots', async () => {
    const documents = await createNode(api, token, folder(environmentId, 'Links'));
    const { url: _url, ...noUrl } = urlDocument(documents.nodeId);
    const response = await api.call('POST', '/api/v1/items', { token, body: noUrl });
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([expect.objectContaining({ path: '$.url', rule: 'required' })]);

    const badUrl = await api.call('POST', '/api/v1/items', {
      token,
      body: { ...urlDocument(documents.nodeId), url: 'javascript:alert(1)' },
    });
    expect(badUrl.status).toBe(400);
    expect(badUrl.body.errors[0].path).toBe('$.url');
    for (const url of ['ftp://files.example.com/a', 'http:/missing-slash', 'https://exa mple.com/']) {
      const refused = await api.call('POST', '/api/v1/items', {
        token,
        body: { ...urlDocument(documents.nodeId), url },
      });
      expect(refused.status, url).toBe(400);
      expect(refused.body.errors[0].path).toBe('$.url');
    }
    // Links within a company's network: single-label hosts, ports, IP addresses.
    for (const url of [
      'https://intranet/wiki/Travel',
      'http://sharepoint:8080/sites/hr',
      'http://10.1.2.3/policy.pdf',
    ]) {
      const created = await api.call('POST', '/api/v1/items', {
        token,
        body: { ...urlDocument(documents.nodeId, 'Intranet link'), url },
      });
      expect(created.status, created.text).toBe(200);
      const read = await api.call('GET', `/api/v1/items/${created.body.nodeId}?detail=true`, { token });
      expect(read.body.url).toBe(url);
    }

    const root = await api.call('POST', '/api/v1/items', {
      token,
      body: {
        parent: { nodeId: environmentId },
        '@type': 'NodeElement',
        nodeType: 'GLOSSARY_ROOT',
        name: 'Another',
      },
    });
    expect(root.status).toBe(400);
    expect(root.body.code).toBe('NODE_TYPE_NOT_CREATABLE');
  });

  it('creates environments with their system roots, for system administrators', async () => {
    const environment = await createNode(api, token, {
      '@type': 'NodeElement',
      nodeType: 'ENVIRONMENT',
      name: 'Audit',
    });
    const detail = await api.call('GET', `/api/v1/items/${environment.nodeId}?detail=true`, { token });
    expect(Object.keys(detail.body.systemRoots).sort()).toEqual(
      NODE_TYPES.filter((t) => t.systemRoot)
        .map((t) => t.nodeType)
        .sort(),
    );
    for (const rootId of Object.values(detail.body.systemRoots as Record<string, string>)) {
      const root = await api.call('GET', `/api/v1/items/${rootId}`, { token });
      expect(root.body).toMatchObject({ system: true, deleted: false });
    }
  });
});

describe('GET /api/v1/items/{nodeId}', () => {
  it('returns the node with a weak ETag and private no-cache, and 304 for If-None-Match', async () => {
    const created = await createNode(api, token, folder(environmentId, 'Retrieved'));
    const response = await api.call('GET', `/api/v1/items/${created.nodeId}?draft=true`, { token });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(created);
    expect(response.headers.get('cache-control')).toBe('no-cache, no-transform, private');
    const etag = response.headers.get('etag') as string;
    expect(etag).toBe(`W/"${created.nodeVersionId}"`);

    const again = await api.call('GET', `/api/v1/items/${created.nodeId}`, {
      token,
      headers: { 'if-none-match': etag },
    });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.headers.get('etag')).toBe(etag);

    const other = await api.call('GET', `/api/v1/items/${created.nodeId}`, {
      token,
      headers: { 'if-none-match': 'W/"x"' },
    });
    expect(other.status).toBe(200);
  });

  it('answers 412 for If-Match naming another version, before If-None-Match, on the per-type retrieve too', async () => {
    const documents = await createNode(api, token, folder(environmentId, 'Read if matching'));
    const document = await createNode(api, token, urlDocument(documents.nodeId, 'Read if matching'));
    const etag = `W/"${document.nodeVersionId}"`;
    const other = 'W/"11111111-1111-4111-8111-111111111111"';
    for (const path of [
      `/api/v1/items/${document.nodeId}`,
      `/api/v1/document/documents/${document.nodeId}`,
    ]) {
      const refused = await api.call('GET', path, { token, headers: { 'if-match': other } });
      expect(refused.status, path).toBe(412);
      expect(refused.headers.get('content-type')).toBe('application/problem+json');
      expect(refused.body).toMatchObject({ status: 412, code: 'PRECONDITION_FAILED' });
      expect(refused.body.detail).toContain('If-Match');
      expect(refused.headers.get('etag')).toBe(etag);
      for (const ifMatch of [etag, '*']) {
        const read = await api.call('GET', path, { token, headers: { 'if-match': ifMatch } });
        expect(read.status, `${path} ${ifMatch}`).toBe(200);
        expect(read.body.nodeId).toBe(document.nodeId);
      }
    }
    // If-Match is evaluated first: its failure wins over an If-None-Match that would answer 304.
    const both = await api.call('GET', `/api/v1/items/${document.nodeId}`, {
      token,
      headers: { 'if-match': other, 'if-none-match': etag },
    });
    expect(both.status).toBe(412);
    const notModified = await api.call('GET', `/api/v1/items/${document.nodeId}`, {
      token,
      headers: { 'if-match': etag, 'if-none-match': etag },
    });
    expect(notModified.status).toBe(304);
  });

  it('detail=true adds parent and type-specific fields; lower-case ids are accepted', async () => {
    const documents = await createNode(api, token, folder(environmentId, 'Detail'));
    const document = await createNode(api, token, {
      ...urlDocument(documents.nodeId),
      richTextDescription: '<p>Rules for <b>travel</b></p>',
      referenceNumber: 'POL-7',
    });
    const response = await api.call('GET', `/api/v1/items/${document.nodeId.toLowerCase()}?detail=true`, {
      token,
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      nodeId: document.nodeId,
      parent: { nodeId: documents.nodeId },
      documentType: 'URL',
      url: 'https://intranet.example.com/travel',
      richTextDescription: '<p>Rules for <b>travel</b></p>',
      referenceNumber: 'POL-7',
    });
    const plain = await api.call('GET', `/api/v1/items/${document.nodeId}`, { token });
    expect(plain.body).not.toHaveProperty('url');
  });

  it('draft=false answers 404 for a never-published object', async () => {
    const created = await createNode(api, token, folder(environmentId, 'Unpublished'));
    const response = await api.call('GET', `/api/v1/items/${created.nodeId}?draft=false`, { token });
    expect(response.status).toBe(404);
    expect(response.body.code).toBe('NODE_NOT_FOUND');
  });

  it('answers 404 for an unknown id and 400 for a malformed one or an unknown parameter', async () => {
    const unknown = await api.call('GET', '/api/v1/items/00000000-0000-4000-8000-000000000000', { token });
    expect(unknown.status).toBe(404);
    const malformed = await api.call('GET', '/api/v1/items/not-a-uuid', { token });
    expect(malformed.status).toBe(400);
    expect(malformed.body.errors[0]).toMatchObject({ in: 'path', path: '$.nodeId' });
    const param = await api.call('GET', `/api/v1/items/${environmentId}?draft=maybe&colour=red`, { token });
    expect(param.status).toBe(400);
    expect(param.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['$.colour', '$.draft']);
  });
});

describe('PUT /api/v1/items/{nodeId}', () => {
  it('updates with the current nodeVersionId: new version id, version 0.0002, later modificationDate', async () => {
    const documents = await createNode(api, token, folder(environmentId, 'To update'));
    const retrieved = await api.call('GET', `/api/v1/items/${documents.nodeId}?detail=true`, { token });
    await new Promise((r) => setTimeout(r, 5));
    const response = await api.call('PUT', `/api/v1/items/${documents.nodeId}?draft=true`, {
      token,
      body: { ...retrieved.body, name: 'Updated policies' },
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      '@type': 'BaseElement',
      nodeId: documents.nodeId,
      name: 'Updated policies',
      version: '0.0002',
      nodeStatus: 'IN_PROGRESS',
      creationDate: documents.creationDate,
    });
    expect(response.body.nodeVersionId).not.toBe(documents.nodeVersionId);
    expect(response.body.modificationDate > documents.modificationDate).toBe(true);
    expect(response.headers.get('etag')).toBe(`W/"${response.body.nodeVersionId}"`);

    const after = await api.call('GET', `/api/v1/items/${documents.nodeId}`, { token });
    expect(after.body).toEqual(response.body);
  });

  it('keeps a working copy at <major>.9999 writable: the version stays, the nodeVersionId moves', async () => {
    const documents = await createNode(api, token, folder(environmentId, 'Edited ten thousand times'));
    // What 9,998 updates leave (writing them one by one would take minutes).
    const { client, TableName } = tableClient(ctx.stack);
    await client.send(
      new UpdateCommand({
        TableName,
        Key: { PK: `NODE#${documents.nodeId}`, SK: 'DRAFT' },
        UpdateExpression: 'SET #version = :version',
        ExpressionAttributeNames: { '#version': 'version' },
        ExpressionAttributeValues: { ':version': '0.9999' },
      }),
    );
    const current = await api.call('GET', `/api/v1/items/${documents.nodeId}`, { token });
    expect(current.body.version).toBe('0.9999');
    const updated = await api.call('PUT', `/api/v1/items/${documents.nodeId}`, {
      token,
      body: { ...current.body, name: 'The ten-thousandth write' },
    });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body).toMatchObject({ version: '0.9999', name: 'The ten-thousandth write' });
    expect(updated.body.nodeVersionId).not.toBe(current.body.nodeVersionId);
    const deleted = await api.call('DELETE', `/api/v1/items/${documents.nodeId}`, { token });
    expect(deleted.status, deleted.text).toBe(200);
    const restored = await api.call('POST', `/api/v1/items/${documents.nodeId}/restore`, { token });
    expect(restored.status, restored.text).toBe(200);
    const published = await api.call('POST', `/api/v1/items/${documents.nodeId}/publish`, {
      token,
      body: {
        nodeVersionId: (await api.call('GET', `/api/v1/items/${documents.nodeId}`, { token })).body
          .nodeVersionId,
      },
    });
    expect(published.status, published.text).toBe(200);
    expect((await api.call('GET', `/api/v1/items/${documents.nodeId}`, { token })).body.version).toBe(
      '1.0000',
    );
  });

  it('answers 409 naming the current nodeVersionId for a stale one, and changes nothing', async () => {
    const documents = await createNode(api, token, folder(environmentId, 'Stale'));
    const first = await api.call('PUT', `/api/v1/items/${documents.nodeId}`, {
      token,
      body: {
        ...folder(environmentId, 'First'),
        nodeId: documents.nodeId,
        nodeVersionId: documents.nodeVersionId,
      },
    });
    expect(first.status).toBe(200);
    const stale = await api.call('PUT', `/api/v1/items/${documents.nodeId}`, {
      token,
      body: {
        ...folder(environmentId, 'Second'),
        nodeId: documents.nodeId,
        nodeVersionId: documents.nodeVersionId,
      },
    });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({
      code: 'VERSION_CONFLICT',
      currentNodeVersionId: first.body.nodeVersionId,
    });
    const current = await api.call('GET', `/api/v1/items/${documents.nodeId}`, { token });
    expect(current.body).toEqual(first.body);
    // Not a nodeVersionId at all: 400 naming it. The current one in lower case: it is the current one.
    const malformed = await api.call('PUT', `/api/v1/items/${documents.nodeId}`, {
      token,
      body: { ...current.body, name: 'Third', nodeVersionId: 'x' },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.errors[0]).toMatchObject({ path: '$.nodeVersionId' });
    const lowerCase = await api.call('PUT', `/api/v1/items/${documents.nodeId}`, {
      token,
      body: { ...current.body, name: 'Third', nodeVersionId: current.body.nodeVersionId.toLowerCase() },
    });
    expect(lowerCase.status, lowerCase.text).toBe(200);
    expect(lowerCase.body.name).toBe('Third');
  });

  it('honours If-Match with 412 and the current ETag', async () => {
    const documents = await createNode(api, token, folder(environmentId, 'If-Match'));
    const body = {
      ...folder(environmentId, 'Renamed'),
      nodeId: documents.nodeId,
      nodeVersionId: documents.nodeVersionId,
    };
    const refused = await api.call('PUT', `/api/v1/items/${documents.nodeId}`, {
      token,
      body,
      headers: { 'if-match': 'W/"11111111-1111-4111-8111-111111111111"' },
    });
    expect(refused.status).toBe(412);
    expect(refused.headers.get('etag')).toBe(`W/"${documents.nodeVersionId}"`);
    const accepted = await api.call('PUT', `/api/v1/items/${documents.nodeId}`, {
      token,
      body,
      headers: { 'if-match': `W/"${documents.nodeVersionId}"` },
    });
    expect(accepted.status).toBe(200);
  });

  it('refuses If-None-Match: * or naming the current version with 412, and changes nothing', async () => {
    const documents = await createNode(api, token, folder(environmentId, 'If-None-Match'));
    const path = `/api/v1/items/${documents.nodeId}`;
    const etag = `W/"${documents.nodeVersionId}"`;
    const body = {
      ...folder(environmentId, 'Overwritten'),
      nodeId: documents.nodeId,
      nodeVersionId: documents.nodeVersionId,
    };
    for (const ifNoneMatch of ['*', etag, `W/"11111111-1111-4111-8111-111111111111", ${etag}`]) {
      const refused = await api.call('PUT', path, { token, body, headers: { 'if-none-match': ifNoneMatch } });
      expect(refused.status, ifNoneMatch).toBe(412);
      expect(refused.headers.get('content-type')).toBe('application/problem+json');
      expect(refused.body).toMatchObject({ status: 412, code: 'PRECONDITION_FAILED' });
      expect(refused.body.detail).toContain('If-None-Match');
      expect(refused.headers.get('etag')).toBe(etag);
    }
    const unchanged = await api.call('GET', path, { token });
    expect(unchanged.body).toEqual(documents);

    // Another version in If-None-Match is no hit: the update goes through.
    const accepted = await api.call('PUT', path, {
      token,
      body,
      headers: { 'if-none-match': 'W/"11111111-1111-4111-8111-111111111111"' },
    });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ name: 'Overwritten', version: '0.0002' });
  });

  it('refuses a body for another node, a type change and a move, naming the field', async () => {
    const documents = await createNode(api, token, folder(environmentId, 'Guarded'));
    const base = {
      ...folder(environmentId),
      nodeId: documents.nodeId,
      nodeVersionId: documents.nodeVersionId,
    };
    const otherId = await api.call('PUT', `/api/v1/items/${environmentId}`, { token, body: base });
    expect(otherId.status).toBe(400);
    expect(otherId.body.errors[0].path).toBe('$.nodeId');
    const retyped = await api.call('PUT', `/api/v1/items/${documents.nodeId}`, {
      token,
      body: { ...base, nodeType: 'PROCESS_SET' },
    });
    expect(retyped.status).toBe(400);
    expect(retyped.body.errors[0]).toMatchObject({ path: '$.nodeType', rule: 'immutable' });
    const other = await createNode(api, token, folder(environmentId, 'Elsewhere'));
    const moved = await api.call('PUT', `/api/v1/items/${documents.nodeId}`, {
      token,
      body: { ...base, parent: { nodeId: other.nodeId } },
    });
    expect(moved.status).toBe(400);
    expect(moved.body.code).toBe('MOVE_NOT_SUPPORTED');
    const unchanged = await api.call('GET', `/api/v1/items/${documents.nodeId}`, { token });
    expect(unchanged.body.nodeVersionId).toBe(documents.nodeVersionId);
  });

  it('refuses a move by an editor without naming the parent they may not read', async () => {
    const granted = await createNode(api, token, folder(environmentId, 'Granted folder'));
    const editorId = await createUser(api, token, 'move-editor');
    await grant(api, token, granted.nodeId, editorId, 'EDITOR');
    const editor = await api.login('move-editor', PASSWORD);
    const retrieved = (
      await api.call('GET', `/api/v1/items/${granted.nodeId}?detail=true`, { token: editor })
    ).body;
    expect(retrieved.parent).toBeNull();
    const moved = await api.call('PUT', `/api/v1/items/${granted.nodeId}`, {
      token: editor,
      body: { ...retrieved, parent: { nodeId: '11111111-1111-1111-1111-111111111111' } },
    });
    expect(moved.status).toBe(400);
    expect(moved.body.errors[0]).toMatchObject({ path: '$.parent.nodeId', rule: 'immutable' });
    expect(moved.text).not.toContain(environmentId);
    const sentBack = await api.call('PUT', `/api/v1/items/${granted.nodeId}`, {
      token: editor,
      body: retrieved,
    });
    expect(sentBack.status, sentBack.text).toBe(200);
  });

  it('takes an object kept under a system root back with the environment it was created under as parent', async () => {
    const payload = { parent: { nodeId: environmentId }, '@type': 'Role', nodeType: 'ROLE', name: 'Buyer' };
    const role = await createNode(api, token, payload);
    const placed = (await api.call('GET', `/api/v1/items/${role.nodeId}?detail=true`, { token })).body;
    expect(placed.parent.nodeId).not.toBe(environmentId);
    const resent = await api.call('PUT', `/api/v1/items/${role.nodeId}`, {
      token,
      body: { ...payload, name: 'Senior buyer', nodeId: role.nodeId, nodeVersionId: role.nodeVersionId },
    });
    expect(resent.status, resent.text).toBe(200);
    const after = (await api.call('GET', `/api/v1/items/${role.nodeId}?detail=true`, { token })).body;
    expect(after).toMatchObject({ name: 'Senior buyer', parent: { nodeId: placed.parent.nodeId } });
    // Another environment is a move, still refused.
    const other = await api.call('POST', '/api/v1/items', {
      token,
      body: { '@type': 'NodeElement', nodeType: 'ENVIRONMENT', name: 'Roles elsewhere' },
    });
    const moved = await api.call('PUT', `/api/v1/items/${role.nodeId}`, {
      token,
      body: {
        ...payload,
        parent: { nodeId: other.body.nodeId },
        nodeId: role.nodeId,
        nodeVersionId: resent.body.nodeVersionId,
      },
    });
    expect(moved.status).toBe(400);
    expect(moved.body.code).toBe('MOVE_NOT_SUPPORTED');
  });

  it('ignores read-only fields sent back as retrieved, and refuses one of another type, naming it', async () => {
    const created = await createNode(api, token, folder(environmentId, 'Read-only'));
    const retrieved = (await api.call('GET', `/api/v1/items/${created.nodeId}`, { token })).body;
    for (const [field, value] of [
      ['version', 2],
      ['creationDate', 'yesterday'],
      ['nodeStatus', 'ARCHIVED'],
      ['deleted', 'no'],
      ['favorite', 1],
    ] as const) {
      const refused = await api.call('PUT', `/api/v1/items/${created.nodeId}`, {
        token,
        body: { ...retrieved, name: 'Renamed', [field]: value },
      });
      expect(refused.status, field).toBe(400);
      expect(refused.body.errors.map((e: { path: string }) => e.path)).toEqual([`$.${field}`]);
    }
    const unchanged = await api.call('GET', `/api/v1/items/${created.nodeId}`, { token });
    expect(unchanged.body).toMatchObject({ name: 'Read-only', nodeVersionId: created.nodeVersionId });
    // As retrieved, with a version and dates that are not the object's: accepted, and ignored.
    const updated = await api.call('PUT', `/api/v1/items/${created.nodeId}`, {
      token,
      body: { ...retrieved, name: 'Renamed', version: '7.0000', creationDate: '2001-01-01T00:00:00.000Z' },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      name: 'Renamed',
      version: '0.0002',
      creationDate: retrieved.creationDate,
    });
  });
});

describe('DELETE /api/v1/items/{nodeId}', () => {
  it('soft-deletes the whole subtree, answers the deleted nodes, and they are 404 afterwards', async () => {
    const top = await createNode(api, token, folder(environmentId, 'Doomed'));
    const sub = await createNode(api, token, {
      parent: { nodeId: top.nodeId },
      '@type': 'NodeElement',
      nodeType: 'DOCUMENT_SET',
      name: 'Sub',
    });
    const docs = await Promise.all([
      createNode(api, token, urlDocument(sub.nodeId, 'One')),
      createNode(api, token, urlDocument(sub.nodeId, 'Two')),
      createNode(api, token, urlDocument(top.nodeId, 'Three')),
    ]);
    const response = await api.call('DELETE', `/api/v1/items/${top.nodeId}?draft=true`, { token, body: {} });
    expect(response.status).toBe(200);
    const deleted = response.body as { nodeId: string; deleted: boolean; '@type': string; version: string }[];
    expect(deleted[0]?.nodeId).toBe(top.nodeId);
    expect(deleted.map((n) => n.nodeId).sort()).toEqual(
      [top.nodeId, sub.nodeId, ...docs.map((d) => d.nodeId)].sort(),
    );
    for (const node of deleted) {
      expect(node).toMatchObject({ '@type': 'BaseElement', deleted: true, version: '0.0002' });
      const gone = await api.call('GET', `/api/v1/items/${node.nodeId}`, { token });
      expect(gone.status).toBe(404);
    }
    const again = await api.call('DELETE', `/api/v1/items/${top.nodeId}`, { token, body: {} });
    expect(again.status).toBe(404);
    const under = await api.call('POST', '/api/v1/items', { token, body: urlDocument(top.nodeId) });
    expect(under.status).toBe(404);
    expect(under.body.code).toBe('PARENT_NOT_FOUND');
  });

  it('accepts an empty body, refuses a non-empty one, and protects system roots', async () => {
    const lone = await createNode(api, token, folder(environmentId, 'Lone'));
    const withBody = await api.call('DELETE', `/api/v1/items/${lone.nodeId}`, {
      token,
      body: { force: true },
    });
    expect(withBody.status).toBe(400);
    const noBody = await api.call('DELETE', `/api/v1/items/${lone.nodeId}`, { token });
    expect(noBody.status).toBe(200);
    expect(noBody.body).toHaveLength(1);

    const environment = await api.call('GET', `/api/v1/items/${environmentId}?detail=true`, { token });
    const root = await api.call('DELETE', `/api/v1/items/${environment.body.systemRoots.RISK_ROOT}`, {
      token,
      body: {},
    });
    expect(root.status).toBe(409);
    expect(root.body.code).toBe('SYSTEM_NODE_PROTECTED');
  });

  it('refuses If-None-Match naming the current version (or *) with 412, and deletes nothing', async () => {
    const top = await createNode(api, token, folder(environmentId, 'Not deleted'));
    const child = await createNode(api, token, urlDocument(top.nodeId, 'Not deleted either'));
    const path = `/api/v1/items/${top.nodeId}`;
    const conditions: Record<string, string>[] = [
      { 'if-none-match': `W/"${top.nodeVersionId}"` },
      { 'if-none-match': '*' },
      { 'if-match': `W/"${top.nodeVersionId}"`, 'if-none-match': `W/"${top.nodeVersionId}"` },
    ];
    for (const headers of conditions) {
      const refused = await api.call('DELETE', path, { token, headers });
      expect(refused.status, JSON.stringify(headers)).toBe(412);
      expect(refused.headers.get('content-type')).toBe('application/problem+json');
      expect(refused.body).toMatchObject({ status: 412, code: 'PRECONDITION_FAILED' });
      expect(refused.body.detail).toContain('If-None-Match');
      expect(refused.headers.get('etag')).toBe(`W/"${top.nodeVersionId}"`);
    }
    for (const node of [top, child]) {
      const kept = await api.call('GET', `/api/v1/items/${node.nodeId}`, { token });
      expect(kept.status).toBe(200);
      expect(kept.body).toMatchObject({ deleted: false, nodeVersionId: node.nodeVersionId });
    }
    const trash = await api.call('GET', '/api/v1/trash', { token });
    expect(trash.text).not.toContain(top.nodeId);

    const deleted = await api.call('DELETE', path, {
      token,
      headers: { 'if-none-match': 'W/"11111111-1111-4111-8111-111111111111"' },
    });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toHaveLength(2);
  });

  it('deletes an environment with its system roots and content', async () => {
    const environment = await createNode(api, token, {
      '@type': 'NodeElement',
      nodeType: 'ENVIRONMENT',
      name: 'Temp',
    });
    const documents = await createNode(api, token, folder(environment.nodeId));
    const response = await api.call('DELETE', `/api/v1/items/${environment.nodeId}`, { token, body: {} });
    expect(response.status).toBe(200);
    expect(response.body).toHaveLength(1 + NODE_TYPES.filter((t) => t.systemRoot).length + 1);
    expect((await api.call('GET', `/api/v1/items/${documents.nodeId}`, { token })).status).toBe(404);
    const list = await api.call('GET', '/api/v1/list?nodeType=ENVIRONMENT', { token });
    expect(list.body.results.map((e: { nodeId: string }) => e.nodeId)).not.toContain(environment.nodeId);
  });
});
