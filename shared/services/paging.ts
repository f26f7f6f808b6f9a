/** Page-number paging of small, fully read collections (users, sessions, grants). */
import type { Page } from '#shared/domain/schema-parts.ts';

export type { Page };

/** Which page of a collection a caller asks for (defaults: 50 per page, the first). */
export interface PageRequest {
  pageSize?: number | undefined;
  currentPage?: number | undefined;
}

export function pageOf<T>(
  all: T[],
  sortKey: string,
  { pageSize = 50, currentPage = 1 }: PageRequest,
): Page<T> {
  const start = (currentPage - 1) * pageSize;
  return {
    totalRecords: all.length,
    sortKey,
    order: 'ASC',
    pageSize,
    currentPage,
    results: all.slice(start, start + pageSize),
  };
}
