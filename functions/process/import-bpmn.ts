import { importBpmn } from '#shared/api/operations/process.ts';
import { handle } from '#shared/http/operation.ts';
import { json } from '#shared/http/responses.ts';
import { importProcessBpmn } from '#shared/services/bpmn-service.ts';

/** POST /api/v1/process/processes/{processId}/bpmn: imports a BPMN 2.0 file into a process without tasks. */
export const handler = handle(importBpmn, async ({ caller, path, body }) =>
  json(200, await importProcessBpmn(caller, path.processId, body), { 'cache-control': 'no-store' }),
);
