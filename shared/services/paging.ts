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

/** Reads a page takes to fill up when `read` leaves items out (filters, ends the caller may not read). */
const MAX_READS_PER_PAGE = 5;
/** The most items one read past a run of hidden items asks for (DynamoDB stops at 1 MB anyway). */
const MAX_READ_SIZE = 1000;

/** What one read of a paged collection found. */
export interface PageRead<T> {
  /** At most `limit` results, in order. */
  results: T[];
  /** Where reading goes on, absent after the last item: maybe an item the caller may not see. */
  next?: string;
  /**
   * The position just after the last result. Reads that leave items out must give it: a cursor carries
   * only it, never `next`, which may name what the caller may not see. Defaults to `next`.
   */
  afterLast?: string;
}

/**
 * One page of a partition read a page at a time (`read` answers at most `limit` results from about
 * `readSize` items, and says where reading goes on). A read whose items were left out (a filter, ends the
 * caller may not read) is followed by more reads, up to MAX_READS_PER_PAGE once the page has something,
 * so a page is short only where a collection is mostly hidden; a page with nothing yet reads on, in
 * growing reads, until it has a result or the collection ends, so it is empty only at the end. The
 * cursor resumes right after the last result returned: it never names an item the caller may not see
 * (an id, a relation), and a walk never repeats, skips or loops. No count is kept of these collections,
 * so totalRecords is the number of items up to this page's end, plus one while more follow
 * (totalRecordsExact false), and exact on the last page.
 */
export async function cursorPage<T>(
  list: string,
  sortKey: string,
  { pageSize = 50, cursor }: CursorRequest,
  read: (limit: number, after: string | undefined, readSize: number) => Promise<PageRead<T>>,
  order: 'ASC' | 'DESC' = 'ASC',
): Promise<ListPage<T>> {
  const fingerprint = queryFingerprint({ list, sortKey });
  const position = cursor ? decodeCursor(cursor, fingerprint) : undefined;
  const currentPage = position?.page ?? 1;
  const results: T[] = [];
  let next = position?.after;
  let resumeAt: string | undefined;
  for (let reads = 1; ; reads++) {
    const limit = pageSize - results.length;
    // Past the usual reads with nothing found: read further each time, up to MAX_READ_SIZE.
    const growth = Math.max(0, reads - MAX_READS_PER_PAGE);
    const readSize = Math.max(limit, Math.min(MAX_READ_SIZE, limit * 2 ** growth));
    const page = await read(limit, next, readSize);
    results.push(...page.results);
    if (page.results.length > 0) resumeAt = page.afterLast ?? page.next;
    next = page.next;
    if (!next || results.length >= pageSize) break;
    if (reads >= MAX_READS_PER_PAGE && results.length > 0) break;
  }
  const more = next !== undefined && resumeAt !== undefined;
  const seen = (position?.seen ?? 0) + results.length;
  return {
    totalRecords: seen + (more ? 1 : 0),
    totalRecordsExact: !more,
    sortKey,
    order,
    pageSize,
    currentPage,
    results,
    nextCursor: more
      ? encodeCursor({ after: resumeAt as string, page: currentPage + 1, seen }, fingerprint)
      : null,
  };
}
