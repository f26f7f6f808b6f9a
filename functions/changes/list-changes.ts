import { listChanges } from '#shared/api/operations/changes.ts';
import { handle } from '#shared/http/operation.ts';
import { json } from '#shared/http/responses.ts';
import { changesFor } from '#shared/services/change-feed.ts';

/** GET /api/v1/changes: the change feed after a cursor, as the caller may see it. */
export const handler = handle(listChanges, async ({ caller, query }) =>
  json(200, await changesFor(caller, query), { 'cache-control': 'no-store' }),
);
