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
