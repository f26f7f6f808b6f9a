/** Builders for the objects integration tests create. */
import type { ApiClient } from './test-stack.ts';

export async function defaultEnvironmentId(api: ApiClient, token: string): Promise<string> {
  const page = await api.call('GET', '/api/v1/list?nodeType=ENVIRONMENT', { token });
  const environment = page.body.results.find((e: { name: string }) => e.name === 'Default');
  if (!environment) throw new Error('no Default environment');
  return environment.nodeId;
}

export async function createNode(api: ApiClient, token: string, payload: Record<string, unknown>) {
  const response = await api.call('POST', '/api/v1/items?draft=true', { token, body: payload });
  if (response.status !== 200) throw new Error(`create failed: ${response.status} ${response.text}`);
  return response.body;
}

export const folder = (parentId: string, name = 'Policies') => ({
  parent: { nodeId: parentId },
  '@type': 'NodeElement',
  nodeType: 'DOCUMENT_SET',
  name,
});

export const urlDocument = (
  parentId: string,
  name = 'Travel policy',
  url = 'https://intranet.example.com/travel',
) => ({
  parent: { nodeId: parentId },
  '@type': 'Document',
  nodeType: 'DOCUMENT',
  documentType: 'URL',
  name,
  url,
});

/** Creates an object of `nodeType` in an environment, with whatever folders or parents it needs. */
export async function createOfType(
  api: ApiClient,
  token: string,
  environmentId: string,
  nodeType: string,
  name = `A ${nodeType}`,
): Promise<any> {
  const under = async (
    parentId: string,
    type: string,
    payloadType: string,
    extra: Record<string, unknown> = {},
  ) =>
    createNode(api, token, {
      parent: { nodeId: parentId },
      '@type': payloadType,
      nodeType: type,
      name,
      ...extra,
    });
  switch (nodeType) {
    case 'DOCUMENT':
      return under(
        (await createNode(api, token, folder(environmentId, `${name} folder`))).nodeId,
        'DOCUMENT',
        'Document',
        {
          documentType: 'URL',
          url: 'https://example.com/doc',
        },
      );
    case 'PROCESS': {
      const set = await createNode(api, token, {
        parent: { nodeId: environmentId },
        '@type': 'NodeElement',
        nodeType: 'PROCESS_SET',
        name: `${name} folder`,
      });
      return under(set.nodeId, 'PROCESS', 'Process');
    }
    case 'ATTRIBUTE': {
      const entity = await createOfType(api, token, environmentId, 'ENTITY', `${name} entity`);
      return under(entity.nodeId, 'ATTRIBUTE', 'Attribute');
    }
    default: {
      const payloadType = {
        CAPABILITY: 'Capability',
        POST: 'Post',
        CONTROL: 'Control',
        TERM: 'Term',
        ENTITY: 'Entity',
        ASSET: 'Asset',
        RESOURCE: 'Resource',
        ROLE: 'Role',
        INDICATOR: 'Indicator',
        RISK: 'Risk',
        RULE: 'Rule',
      }[nodeType];
      if (!payloadType) throw new Error(`createOfType: no recipe for ${nodeType}`);
      return under(environmentId, nodeType, payloadType);
    }
  }
}
