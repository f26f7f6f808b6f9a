import { addProcessEdges } from '#shared/api/operations/process.ts';
import { handle } from '#shared/http/operation.ts';
import { json } from '#shared/http/responses.ts';
import { addEdges } from '#shared/services/process-diagram-service.ts';

/** POST /api/v1/process/processes/{processId}/edges: edges between tasks of the process. */
export const handler = handle(addProcessEdges, async ({ caller, path, body }) =>
  json(200, await addEdges(caller, path.processId, body), { 'cache-control': 'no-store' }),
);
