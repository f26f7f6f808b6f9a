import { purgeTrash } from '#shared/api/operations/trash.ts';
import { handle } from '#shared/http/operation.ts';
import { empty } from '#shared/http/responses.ts';
import { purgeSubtree } from '#shared/services/trash-service.ts';

/** DELETE /api/v1/trash/{nodeId}: a deleted subtree and its files, gone for good. */
export const handler = handle(purgeTrash, async ({ caller, path }) => {
  await purgeSubtree(caller, path.nodeId);
  return empty(204);
});
