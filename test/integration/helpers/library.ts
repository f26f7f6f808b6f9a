/** Builders for the objects integration tests create. */
import { nodeTypeDefinition } from '#shared/domain/node-types.ts';
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

export const processFolder = (parentId: string, name = 'Processes') => ({
  ...folder(parentId, name),
  nodeType: 'PROCESS_SET',
});

export const processIn = (parentId: string, name = 'Order handling') => ({
  parent: { nodeId: parentId },
  '@type': 'Process',
  nodeType: 'PROCESS',
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

/** Fields an object of `nodeType` needs beyond the common ones. */
const TYPE_FIELDS: Record<string, Record<string, unknown>> = {
  DOCUMENT: { documentType: 'URL', url: 'https://example.com/doc' },
};

/**
 * Creates an object of `nodeType` in an environment (a new environment for ENVIRONMENT), with whatever
 * parents it needs, read from the node-type catalogue; `extra` adds fields to its payload.
 */
export async function createOfType(
  api: ApiClient,
  token: string,
  environmentId: string,
  nodeType: string,
  name = `A ${nodeType}`,
  extra: Record<string, unknown> = {},
): Promise<any> {
  const definition = nodeTypeDefinition(nodeType);
  if (!definition) throw new Error(`createOfType: ${nodeType} is not catalogued`);
  const payload = { '@type': definition.payloadType, nodeType, name, ...TYPE_FIELDS[nodeType], ...extra };
  if (nodeType === 'ENVIRONMENT') return createNode(api, token, payload);
  // Under the environment itself, or (for items kept under a system root) the environment standing for it.
  const direct = definition.parents.some(
    (type) => type === 'ENVIRONMENT' || nodeTypeDefinition(type)?.systemRoot,
  );
  const parentId = direct
    ? environmentId
    : (await createOfType(api, token, environmentId, definition.parents[0] as string, `${name} parent`))
        .nodeId;
  return createNode(api, token, { parent: { nodeId: parentId }, ...payload });
}

export interface TaskSpec {
  editId: string;
  name?: string;
  sequenceNumber?: number;
  edges?: { from?: string; to: string }[];
}

/** Task nodes of spec §2.3, laid out in a row; each edge goes from its task to `to`. */
export const taskNodes = (specs: TaskSpec[]) =>
  specs.map((spec, i) => ({
    '@type': 'TaskNode',
    nodeType: 'TASK',
    name: spec.name ?? `Task ${spec.editId}`,
    sequenceNumber: spec.sequenceNumber ?? i + 1,
    topLeftX: 100 + i * 150,
    topLeftY: 80,
    width: 100,
    height: 80,
    editId: spec.editId,
    ...(spec.edges
      ? {
          edges: spec.edges.map((edge) => ({
            sourceNodeId: edge.from ?? spec.editId,
            sourcePortPoint: { x: 200 + i * 150, y: 120 },
            targetNodeId: edge.to,
            targetPortPoint: { x: 250 + i * 150, y: 120 },
          })),
        }
      : {}),
  }));

/** A chain of `count` tasks, each with an edge to the next. */
export const chain = (count: number, prefix = 't') =>
  taskNodes(
    Array.from({ length: count }, (_, i) => ({
      editId: `${prefix}${i}`,
      ...(i + 1 < count ? { edges: [{ to: `${prefix}${i + 1}` }] } : {}),
    })),
  );
