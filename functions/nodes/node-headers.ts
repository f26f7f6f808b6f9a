import { etagOf, type Node } from '#shared/domain/node.ts';
import { NODE_CACHE_CONTROL } from '#shared/http/responses.ts';

/** Every node response carries its validator and is private to the caller. */
export const nodeHeaders = (node: Pick<Node, 'nodeVersionId'>) => ({
  etag: etagOf(node),
  'cache-control': NODE_CACHE_CONTROL,
});
