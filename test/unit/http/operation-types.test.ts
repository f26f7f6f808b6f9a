/**
 * A handler is built from its own declaration: its input is typed from that declaration's schemas, so
 * reading a field the operation does not take is a type error (checked by `npm run typecheck`).
 */
import { describe, expectTypeOf, it } from 'vitest';
import { listUsers } from '#shared/api/operations/admin.ts';
import { getNode } from '#shared/api/operations/node-reads.ts';
import { updateNode } from '#shared/api/operations/nodes.ts';
import { handle } from '#shared/http/operation.ts';
import { json } from '#shared/http/responses.ts';

describe('handler input types', () => {
  it('come from the declaration the handler is built with', () => {
    handle(getNode, async ({ path, query, body }) => {
      expectTypeOf(path.nodeId).toEqualTypeOf<string>();
      expectTypeOf(query.draft).toEqualTypeOf<boolean>();
      expectTypeOf(body).toEqualTypeOf<undefined>();
      return json(200, {});
    });
    handle(updateNode, async ({ body }) => {
      expectTypeOf(body.nodeVersionId).toEqualTypeOf<string>();
      return json(200, {});
    });
    handle(listUsers, async ({ query }) => {
      expectTypeOf(query.pageSize).toEqualTypeOf<number | undefined>();
      // @ts-expect-error listUsers has no path parameters
      void query.principalId;
      return json(200, {});
    });
  });
});
