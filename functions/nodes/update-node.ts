import { updateNode } from '#shared/api/operations/nodes.ts';
import { toBaseElement } from '#shared/domain/node.ts';
import { handle } from '#shared/http/operation.ts';
import { preconditionsOf } from '#shared/http/request-headers.ts';
import { json } from '#shared/http/responses.ts';
import { readNode } from '#shared/services/node-reads.ts';
import * as nodes from '#shared/services/node-service.ts';
import * as taskGeometry from '#shared/services/task-geometry.ts';
import * as fileAttacher from '#shared/services/upload-attachments.ts';
import { nodeHeaders } from './node-headers.ts';

/** PUT /api/v1/items/{nodeId}: replaces the working copy; the body quotes the current nodeVersionId. */
export const handler = handle(
  updateNode,
  // The working copy is read beside the session check; the caller's right to edit it is judged after.
  { prefetch: ({ path }) => readNode(path.nodeId, true) },
  async ({ caller, path, body, event, prefetched }) => {
    const node = await nodes.updateNode(
      caller,
      path.nodeId,
      body,
      preconditionsOf(event),
      fileAttacher,
      prefetched,
      taskGeometry,
    );
    return json(200, toBaseElement(node), nodeHeaders(node));
  },
);
