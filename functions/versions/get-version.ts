import { getVersion } from '#shared/api/operations/versions.ts';
import { toDetailedElement } from '#shared/domain/node-elements.ts';
import { canReadParentOf } from '#shared/domain/permissions.ts';
import { handle } from '#shared/http/operation.ts';
import { json } from '#shared/http/responses.ts';
import { getVersion as version } from '#shared/services/version-history-service.ts';
import { nodeHeaders } from '../nodes/node-headers.ts';

/** GET /api/v1/items/{nodeId}/versions/{nodeVersionId}: the object as it was at that version. */
export const handler = handle(getVersion, async ({ caller, path }) => {
  const node = await version(caller, path.nodeId, path.nodeVersionId);
  return json(200, toDetailedElement(node, canReadParentOf(caller, node)), nodeHeaders(node));
});
