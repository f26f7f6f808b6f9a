/**
 * The change feed (README "Keeping a copy in sync"): what happened to each object, in commit order per
 * object, as a sync client replays it. Changes are recorded from the table's stream, so every committed
 * write is in the feed (at least once: `changeId` tells repeats apart) and nothing is in it unwritten.
 */
import * as z from 'zod/mini';
import { named } from './schema-parts.ts';

export const CHANGE_KINDS = [
  'CREATED',
  'UPDATED',
  'MOVED',
  'PUBLISHED',
  'DELETED',
  'RESTORED',
  'PURGED',
  'EDGE_ADDED',
  'EDGE_CHANGED',
  'EDGE_REMOVED',
  'RELATION_LINKED',
  /** A link's responsibility kinds changed (a kind added to or removed from a responsibility link). */
  'RELATION_CHANGED',
  'RELATION_UNLINKED',
  'GRANTED',
  'GRANT_CHANGED',
  'REVOKED',
  /** Moved out of what the caller may read: drop it (and its subtree) from the copy. */
  'REMOVED',
] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

/** How long the feed keeps a change; an older cursor is answered 410 (resync from the lists). */
export const CHANGE_RETENTION_DAYS = 30;

/** A change as stored and as the feed answers it (less the placement it is filtered by). */
export const changeSchema = named(
  z.strictObject({
    '@type': z.literal('Change'),
    /** Unique per change: a client that sees one twice (delivery is at least once) skips the repeat. */
    changeId: z.string(),
    kind: z.enum(CHANGE_KINDS),
    /** The object the change is about (for edges and relations, the process or the source). */
    nodeId: z.string(),
    nodeType: z.nullable(z.string()),
    nodeVersionId: z.nullable(z.string()),
    version: z.nullable(z.string()),
    nodeStatus: z.nullable(z.string()),
    parentId: z.nullable(z.string()),
    /** Deleted, restored and purged objects carry their whole subtree's changes, one per object. */
    deleted: z.boolean(),
    /** Who made it (null when the item does not record it: an unlink, an edge removal, a purge). */
    by: z.nullable(z.string()),
    /** When the write happened, as the object records it. */
    at: z.nullable(z.string()),
    /** When the feed recorded it: the feed's order. */
    recordedAt: z.string(),
    /** Edges and relations: the edge id, or `<relation>:<otherId>`. */
    detail: z.nullable(z.string()),
    /** Grants: whose role changed, and the role (null once revoked). */
    principalId: z.nullable(z.string()),
    role: z.nullable(z.string()),
  }),
  'Change',
);
export type Change = z.output<typeof changeSchema>;

export const changesPageSchema = named(
  z.strictObject({
    changes: z.array(changeSchema),
    /** Resume from here (opaque). Always present: an empty page still says how far the feed has settled. */
    cursor: z.string(),
    /** More changes are settled beyond this page: ask again at once. */
    hasMore: z.boolean(),
    /** Changes recorded before this moment are all in the feed; later ones may still appear before it. */
    settledUntil: z.string(),
  }),
  'ChangesPage',
);
