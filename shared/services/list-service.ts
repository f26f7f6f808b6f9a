/** The environment list of GET /list?nodeType=ENVIRONMENT. */
import { findLiveNodesOfType, findNode } from '#shared/data/node-repository.ts';
import { type ListPage, toListElement } from '#shared/domain/list-element.ts';
import { DEFAULT_PAGE_SIZE, type ListQuery } from '#shared/domain/list-query.ts';
import type { Node } from '#shared/domain/node.ts';
import { flag } from '#shared/domain/node-payloads.ts';
import { can } from '#shared/domain/permissions.ts';
import type { Caller } from '#shared/domain/user.ts';

/**
 * Environments are few (one per business area), so the page is cut from all of them sorted by nodeId.
 * draft=false lists the published versions of published environments only.
 */
export async function listEnvironments(caller: Caller, query: ListQuery): Promise<ListPage> {
  const pageSize = Number(query.pageSize ?? DEFAULT_PAGE_SIZE);
  const currentPage = Number(query.currentPage ?? 1);
  // Only what the caller may read is listed.
  let environments = (await findLiveNodesOfType('ENVIRONMENT')).filter((e) => can(caller, e, 'read'));
  if (!flag(query.draft, true)) {
    const published = await Promise.all(
      environments.filter((e) => e.publishedNodeVersionId).map((e) => findNode(e.nodeId, 'PUBLISHED')),
    );
    environments = published.filter((n): n is Node => n !== null && !n.deleted);
  }
  environments.sort((a, b) => (a.nodeId < b.nodeId ? -1 : a.nodeId > b.nodeId ? 1 : 0));
  const start = (currentPage - 1) * pageSize;
  return {
    totalRecords: environments.length,
    sortKey: 'nodeId',
    order: 'ASC',
    pageSize,
    currentPage,
    results: environments.slice(start, start + pageSize).map((e) => toListElement(e, null)),
  };
}
