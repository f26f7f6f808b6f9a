import { listVersions } from '#shared/api/operations/versions.ts';
import { handle } from '#shared/http/operation.ts';
import { json } from '#shared/http/responses.ts';
import { listVersions as versions } from '#shared/services/version-history-service.ts';

/** GET /api/v1/items/{nodeId}/versions: the version history, newest first. */
export const handler = handle(listVersions, async ({ caller, path, query }) =>
  json(200, await versions(caller, path.nodeId, query), { 'cache-control': 'no-cache, private' }),
);
