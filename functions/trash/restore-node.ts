import { restoreNode } from '#shared/api/operations/trash.ts';
import { toBaseElement } from '#shared/domain/node.ts';
import { handle } from '#shared/http/operation.ts';
import { json } from '#shared/http/responses.ts';
import { moveProcessOfTask } from '#shared/services/task-diagram.ts';
import { restoreSubtree } from '#shared/services/trash-service.ts';

/** POST /api/v1/items/{nodeId}/restore: a deleted subtree back as it was. */
export const handler = handle(restoreNode, async ({ caller, path }) => {
  const restored = await restoreSubtree(caller, path.nodeId);
  // A task restored on its own comes back into its process's diagram.
  const root = path.nodeId.toUpperCase();
  await moveProcessOfTask(
    caller,
    restored.find((node) => node.nodeId.toUpperCase() === root),
  );
  return json(200, restored.map(toBaseElement), { 'cache-control': 'no-store' });
});
