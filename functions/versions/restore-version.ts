import { restoreVersion } from '#shared/api/operations/versions.ts';
import { toBaseElement } from '#shared/domain/node.ts';
import { handle } from '#shared/http/operation.ts';
import { preconditionsOf } from '#shared/http/request-headers.ts';
import { json } from '#shared/http/responses.ts';
import { restoreVersion as restore } from '#shared/services/version-history-service.ts';
import { nodeHeaders } from '../nodes/node-headers.ts';

/** POST /api/v1/items/{nodeId}/versions/{nodeVersionId}/restore: an old version becomes the working copy. */
export const handler = handle(restoreVersion, async ({ caller, path, body, event }) => {
  const node = await restore(caller, path.nodeId, path.nodeVersionId, {
    body,
    ...preconditionsOf(event),
  });
  return json(200, toBaseElement(node), nodeHeaders(node));
});
