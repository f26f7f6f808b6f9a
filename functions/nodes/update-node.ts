import { updateNode } from '#shared/api/operations/nodes.ts';
import { toBaseElement } from '#shared/domain/node.ts';
import { handle } from '#shared/http/operation.ts';
import { header } from '#shared/http/request-headers.ts';
import { json } from '#shared/http/responses.ts';
import * as nodes from '#shared/services/node-service.ts';
import * as fileAttacher from '#shared/services/upload-attachments.ts';
import { nodeHeaders } from './node-headers.ts';

/** PUT /api/v1/items/{nodeId}: replaces the working copy; the body quotes the current nodeVersionId. */
export const handler = handle(updateNode, async ({ caller, path, body, event }) => {
  const node = await nodes.updateNode(caller, path.nodeId, body, header(event, 'if-match'), fileAttacher);
  return json(200, toBaseElement(node), nodeHeaders(node));
});
