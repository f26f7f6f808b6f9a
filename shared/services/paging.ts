/** Page-number paging of small, fully read collections (users, sessions, grants). */
export interface Page<T> {
  totalRecords: number;
  sortKey: string;
  order: 'ASC' | 'DESC';
  pageSize: number;
  currentPage: number;
  results: T[];
}

export function pageOf<T>(
  all: T[],
  sortKey: string,
  query: { pageSize?: string; currentPage?: string },
): Page<T> {
  const pageSize = Number(query.pageSize ?? 50);
  const currentPage = Number(query.currentPage ?? 1);
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
