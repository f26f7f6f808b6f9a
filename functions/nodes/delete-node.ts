import { deleteNode } from '#shared/api/operations/nodes.ts';
import { toBaseElement } from '#shared/domain/node.ts';
import { handle } from '#shared/http/operation.ts';
import { preconditionsOf } from '#shared/http/request-headers.ts';
import { json } from '#shared/http/responses.ts';
import { readNode } from '#shared/services/node-reads.ts';
import * as nodes from '#shared/services/node-service.ts';
import { moveProcessOfTask } from '#shared/services/task-diagram.ts';

/** DELETE /api/v1/items/{nodeId}: soft-deletes the object and its subtree; answers the deleted nodes. */
export const handler = handle(
  deleteNode,
  // The object is read beside the session check; the caller's right to delete it is judged after.
  { prefetch: ({ path }) => readNode(path.nodeId, true) },
  async ({ caller, path, event, prefetched }) => {
    const deleted = await nodes.deleteNode(caller, path.nodeId, preconditionsOf(event), prefetched);
    // A task deleted on its own leaves its process's diagram (the root comes first).
    await moveProcessOfTask(caller, deleted[0]);
    return json(200, deleted.map(toBaseElement), { 'cache-control': 'no-store' });
  },
);
