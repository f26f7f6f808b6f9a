import { deleteProcessEdge } from '#shared/api/operations/process.ts';
import { handle } from '#shared/http/operation.ts';
import { empty } from '#shared/http/responses.ts';
import { removeEdge } from '#shared/services/process-diagram-service.ts';

/** DELETE /api/v1/process/processes/{processId}/edges/{edgeId}. */
export const handler = handle(deleteProcessEdge, async ({ caller, path }) => {
  await removeEdge(caller, path.processId, path.edgeId);
  return empty(204);
});
