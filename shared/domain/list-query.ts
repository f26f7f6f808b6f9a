/** What a list request asks for (GET /list, /list/{nodeId} and the per-type lists), as the list service takes it. */
import type { NodeStatus } from './node.ts';
import type { ResponsibilityKind } from './relations.ts';

export const MAX_PAGE_SIZE = 1000;
export const DEFAULT_PAGE_SIZE = 50;
/** Offset paging reads every entry before the page; deeper than this, walk with the cursor. */
export const MAX_OFFSET = 100_000;

export const SORT_KEYS = ['nodeId', 'name', 'creationDate', 'modificationDate'] as const;
export type SortKey = (typeof SORT_KEYS)[number];

/** Every member is optional: the service applies the defaults (and the maturity list takes paging only). */
export interface ListQuery {
  pageSize?: number;
  currentPage?: number;
  sortKey?: SortKey;
  order?: 'ASC' | 'DESC';
  /** Some nodeTypes only (the query names them repeated, or comma-separated). */
  nodeType?: string[];
  nodeStatus?: NodeStatus;
  /** Text the name contains, case-insensitively. */
  name?: string;
  /** ISO 8601 instant, normalized to UTC. */
  modifiedSince?: string;
  cursor?: string;
  draft?: boolean;
  /** Objects related to this object (either direction); `relation` narrows it. */
  relatedTo?: string;
  relation?: string;
  /** Objects on which the caller holds a responsibility (any, or this kind). */
  responsibility?: 'any' | ResponsibilityKind;
}
