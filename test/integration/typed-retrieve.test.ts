import { describe, expect, it } from 'vitest';
import { TYPED_RETRIEVES } from '#shared/domain/typed-retrieves.ts';
import { createNode, createOfType } from './helpers/library.ts';
import { type ApiClient, withAdminSession } from './helpers/test-stack.ts';

let api: ApiClient;
let token: string;
let environmentId: string;

withAdminSession((session) => {
  ({ api, token, environmentId } = session);
});

const pathFor = (typedPath: string, param: string, id: string) =>
  `/api/v1${typedPath.replace(`{${param}}`, id)}`;

describe('per-type retrieve', () => {
  for (const typed of TYPED_RETRIEVES) {
    it(`${typed.path} answers its ${typed.label} with its own @type and parent, and 404 for an id of another type`, async () => {
      const nodeType = typed.nodeTypes[0] as string;
      const node = await createOfType(api, token, environmentId, nodeType, `My ${typed.label}`);
      const response = await api.call('GET', pathFor(typed.path, typed.param, node.nodeId), { token });
      expect(response.status).toBe(200);
      expect(response.headers.get('etag')).toBe(`W/"${node.nodeVersionId}"`);
      expect(response.body).toMatchObject({
        nodeId: node.nodeId,
        nodeType,
        name: `My ${typed.label}`,
        version: '0.0001',
      });
      expect(response.body['@type']).not.toBe('BaseElement');
      expect(response.body.parent).toMatchObject({ '@type': 'NameElement', nodeId: expect.any(String) });
      const other = await api.call('GET', pathFor(typed.path, typed.param, environmentId), { token });
      expect(other.status).toBe(404);
    });
  }

  it('a document carries its URL; a process its tasks; an entity its attributes', async () => {
    const document = await createOfType(api, token, environmentId, 'DOCUMENT');
    const doc = await api.call('GET', `/api/v1/document/documents/${document.nodeId}`, { token });
    expect(doc.body).toMatchObject({
      '@type': 'Document',
      documentType: 'URL',
      url: 'https://example.com/doc',
      fileInfo: null,
    });

    const process = await createOfType(api, token, environmentId, 'PROCESS');
    const task = await createNode(api, token, {
      parent: { nodeId: process.nodeId },
      '@type': 'TaskNode',
      nodeType: 'TASK',
      name: 'Check order',
    });
    const proc = await api.call('GET', `/api/v1/process/processes/${process.nodeId}`, { token });
    expect(proc.body).toMatchObject({ '@type': 'Process', edges: [] });
    // A task in the diagram is the task as retrieved, with its place in the diagram (defaults when not given).
    expect(proc.body.tasks).toEqual([
      { ...task, sequenceNumber: 0, topLeftX: 0, topLeftY: 0, width: 100, height: 80, bpmnKind: null },
    ]);

    const attribute = await createOfType(api, token, environmentId, 'ATTRIBUTE');
    const detail = await api.call('GET', `/api/v1/items/${attribute.nodeId}?detail=true`, { token });
    const entity = await api.call('GET', `/api/v1/masterData/entities/${detail.body.parent.nodeId}`, {
      token,
    });
    expect(entity.body.attributes).toEqual([
      { '@type': 'NameElement', nodeId: attribute.nodeId, name: attribute.name, nodeType: 'ATTRIBUTE' },
    ]);
  });

  it('a deleted object is gone here too', async () => {
    const risk = await createOfType(api, token, environmentId, 'RISK');
    await api.call('DELETE', `/api/v1/items/${risk.nodeId}`, { token, body: {} });
    expect((await api.call('GET', `/api/v1/risk/risks/${risk.nodeId}`, { token })).status).toBe(404);
  });
});
