import { createNode } from '#shared/api/operations/nodes.ts';
import { toBaseElement } from '#shared/domain/node.ts';
import { handle } from '#shared/http/operation.ts';
import { json } from '#shared/http/responses.ts';
import * as nodes from '#shared/services/node-service.ts';
import * as fileAttacher from '#shared/services/upload-attachments.ts';
import { nodeHeaders } from './node-headers.ts';

/** POST /api/v1/items: creates an object under its parent (or an environment, for system administrators). */
export const handler = handle(createNode, async ({ caller, body }) => {
  const node = await nodes.createNode(caller, body, fileAttacher);
  return json(200, toBaseElement(node), nodeHeaders(node));
});
