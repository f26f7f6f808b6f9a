/** Paging of collections that are not node lists. */
import { decodeCursor, encodeCursor, queryFingerprint } from '#shared/domain/list-cursor.ts';
import type { ListPage } from '#shared/domain/list-element.ts';
import type { Page } from '#shared/domain/schema-parts.ts';

export type { Page };

/** Which page of a small, fully read collection a caller asks for (defaults: 50 per page, the first). */
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

/** A page of a partition read page by page, as /list's cursor walks: pageSize, cursor, nextCursor. */
export interface CursorRequest {
  pageSize?: number | undefined;
  cursor?: string | undefined;
}

/** Reads one page may take to fill up when `read` leaves items out (filters, ends the caller may not read). */
const MAX_READS_PER_PAGE = 5;

/**
 * One page of a partition read a page at a time (`read` reads at most `limit` and says where the next
 * page starts). A read whose items were left out (a filter, ends the caller may not read) is followed by
 * more reads, up to MAX_READS_PER_PAGE, so a page is short only where a collection is mostly hidden, and
 * never empty while its first reads find something. No count is kept of these collections, so
 * totalRecords is the number of items up to this page's end, plus one while more follow
 * (totalRecordsExact false), and exact on the last page.
 */
export async function cursorPage<T>(
  list: string,
  sortKey: string,
  { pageSize = 50, cursor }: CursorRequest,
  read: (limit: number, after?: string) => Promise<{ results: T[]; next?: string }>,
  order: 'ASC' | 'DESC' = 'ASC',
): Promise<ListPage<T>> {
  const fingerprint = queryFingerprint({ list, sortKey });
  const position = cursor ? decodeCursor(cursor, fingerprint) : undefined;
  const currentPage = position?.page ?? 1;
  const results: T[] = [];
  let next = position?.after;
  for (let reads = 0; reads < MAX_READS_PER_PAGE; reads++) {
    const page = await read(pageSize - results.length, next);
    results.push(...page.results);
    next = page.next;
    if (!next || results.length >= pageSize) break;
  }
  const seen = (position?.seen ?? 0) + results.length;
  return {
    totalRecords: seen + (next ? 1 : 0),
    totalRecordsExact: !next,
    sortKey,
    order,
    pageSize,
    currentPage,
    results,
    nextCursor: next ? encodeCursor({ after: next, page: currentPage + 1, seen }, fingerprint) : null,
  };
}
