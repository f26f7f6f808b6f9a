import { addProcessNodes } from '#shared/api/operations/process.ts';
import { toBaseElement } from '#shared/domain/node.ts';
import { handle } from '#shared/http/operation.ts';
import { json } from '#shared/http/responses.ts';
import { addTasks } from '#shared/services/process-diagram-service.ts';

/** POST /api/v1/process/nodes?process=…: adds tasks with their edges to a process (spec §4.3). */
export const handler = handle(addProcessNodes, async ({ caller, query, body }) => {
  const created = await addTasks(caller, query.process, body);
  return json(
    200,
    created.map(({ node, editId }) => ({ ...toBaseElement(node), editId })),
    { 'cache-control': 'no-store' },
  );
});
