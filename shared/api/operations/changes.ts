/** The change feed: every write, deletions included, for clients that keep a copy in sync. */
import * as z from 'zod/mini';
import { CHANGE_RETENTION_DAYS, changesPageSchema } from '#shared/domain/changes.ts';
import { API_PREFIX, authenticated, defineOperation, problem } from '../operation.ts';
import { cursorParam, positiveIntParam, timestampParam } from '../params.ts';

export const listChanges = defineOperation({
  name: 'listChanges',
  handler: 'functions/changes/list-changes.ts',
  routes: [{ method: 'GET', path: `${API_PREFIX}/changes` }],
  access: authenticated('read'),
  summary: 'Changes since a cursor',
  description:
    'Every create, update, move, publish, delete (one DELETED per object of the subtree), restore, purge, ' +
    "edge, relation and grant change, in the order it was recorded (an object's changes in commit order), " +
    "filtered to what the caller may read now; an object moved out of the caller's view appears as REMOVED. " +
    "Start with no cursor (the whole retention) or with `since` (a time), then pass each page's `cursor` " +
    'back. A change is in the feed once it is older than the settle window (`settledUntil`; 10 s by ' +
    'default), and a cursor never skips one. Delivery is at least once: skip a `changeId` seen before. ' +
    `Changes are kept ${CHANGE_RETENTION_DAYS} days: an older cursor is 410 CURSOR_EXPIRED (list again, ` +
    'then follow from a fresh cursor).',
  tag: 'Common',
  request: {
    query: z.strictObject({
      pageSize: z.optional(positiveIntParam(1000)),
      cursor: z.optional(cursorParam),
      since: z.optional(timestampParam),
    }),
  },
  responses: {
    200: { description: 'A page of changes, and the cursor to go on from', body: changesPageSchema },
    410: problem('CURSOR_EXPIRED: the cursor is older than the retention'),
  },
});
