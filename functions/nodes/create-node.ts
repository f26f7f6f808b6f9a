import { createNode } from '#shared/api/operations/nodes.ts';
import { toBaseElement } from '#shared/domain/node.ts';
import { handle } from '#shared/http/operation.ts';
import { json } from '#shared/http/responses.ts';
import { readNode } from '#shared/services/node-reads.ts';
import * as nodes from '#shared/services/node-service.ts';
import * as taskDiagram from '#shared/services/task-diagram.ts';
import * as fileAttacher from '#shared/services/upload-attachments.ts';
import { nodeHeaders } from './node-headers.ts';

/** POST /api/v1/items: creates an object under its parent (or an environment, for system administrators). */
export const handler = handle(
  createNode,
  // The parent is read beside the session check; the caller's right to create under it is judged after.
  { prefetch: async ({ body }) => (body.parent ? readNode(body.parent.nodeId, true) : null) },
  async ({ caller, body, prefetched }) => {
    const node = await nodes.createNode(caller, body, fileAttacher, prefetched, taskDiagram);
    return json(200, toBaseElement(node), nodeHeaders(node));
  },
);
