import { listTrash } from '#shared/api/operations/trash.ts';
import { handle } from '#shared/http/operation.ts';
import { json } from '#shared/http/responses.ts';
import { listTrash as trash } from '#shared/services/trash-list.ts';

/** GET /api/v1/trash: deleted subtrees the caller may restore or purge, newest first. */
export const handler = handle(listTrash, async ({ caller, query }) =>
  json(200, await trash(caller, query), { 'cache-control': 'no-store' }),
);
