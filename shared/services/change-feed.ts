/**
 * The change feed as one caller sees it (README "Keeping a copy in sync"): the changes recorded up to
 * the settled horizon (now less CHANGES_SETTLE_MS: nothing stamped before it can still be recorded, see
 * change-recorder.ts), after the caller's cursor, filtered to what the caller may read now. An object
 * moved out of the caller's view appears as REMOVED. Changes are kept CHANGE_RETENTION_DAYS; an older
 * cursor is 410 CURSOR_EXPIRED: the client lists again and follows the feed from a fresh cursor.
 */

import { config } from '#shared/config/index.ts';
import { readChangeRange, type StoredChange, timePosition } from '#shared/data/change-repository.ts';
import { CHANGE_RETENTION_DAYS, type Change } from '#shared/domain/changes.ts';
import { GoneError, ValidationError } from '#shared/domain/errors.ts';
import { can, canReadParentOf } from '#shared/domain/permissions.ts';
import type { Caller } from '#shared/domain/user.ts';

const DAY_MS = 86_400_000;
/** How far ahead of this service's clock a client's `since` may be (clocks differ a little). */
const SINCE_CLOCK_SKEW_MS = 5 * 60_000;
const DEFAULT_PAGE_SIZE = 100;
/**
 * A position is a recording time to the microsecond (to the millisecond in cursors issued before),
 * optionally followed by `#<changeId>`.
 */
const POSITION = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}(\d{3})?Z(#[\x21-\x7e]{1,200})?$/;

/** A moment as a position: before every change recorded at it or after. */
const positionAt = (ms: number) => timePosition(new Date(ms).toISOString());

const encodeCursor = (position: string) => Buffer.from(JSON.stringify({ p: position })).toString('base64url');

const notACursor = () =>
  new ValidationError([
    {
      in: 'query',
      path: '$.cursor',
      rule: 'cursor',
      message: 'is not a change-feed cursor; pass the cursor of the last page unchanged',
    },
  ]);

function decodeCursor(cursor: string): string {
  try {
    const { p } = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { p?: unknown };
    if (typeof p === 'string' && POSITION.test(p)) return p;
  } catch {
    // Refused below.
  }
  throw notACursor();
}

/**
 * A position past a change without its id, which names its object (`<eventID>:<objectId>`): just past
 * every change of that write at that moment (`~` sorts after any id). A write's changes are stamped a
 * microsecond apart, so none of them, nor any other write's, is passed over unseen.
 */
function unnamed(position: string): string {
  const object = position.indexOf(':', position.indexOf('#'));
  return position.includes('#') && object >= 0 ? `${position.slice(0, object + 1)}~` : position;
}

/** A recorded change as the feed shows it (and a webhook's message carries it), as `kind`. */
export function changeView(change: StoredChange, kind: Change['kind'] = change.kind): Change {
  const { ancestorIds: _ancestors, previousAncestorIds: _previous, target: _target, ...shown } = change;
  return { '@type': 'Change', ...shown, kind };
}

/** The change as this caller sees it, or nothing if it is about what the caller may not read. */
function asSeenBy(caller: Caller, change: StoredChange): Change | undefined {
  const { ancestorIds, previousAncestorIds } = change;
  const placed = (ancestors: string[]) => ({ nodeId: change.nodeId, ancestorIds: ancestors });
  const answer = (kind?: Change['kind']): Change => {
    const view = changeView(change, kind);
    // A parent the caller may not read is null, as in every other view.
    const { parentId } = view;
    return parentId && !canReadParentOf(caller, { parentId, ancestorIds })
      ? { ...view, parentId: null }
      : view;
  };
  if (change.principalId !== null) {
    // A grant: news to its holder (their view grew or shrank) and to whoever may see the node's grants
    // (GET …/grants: who may grant there); to a reader of the node, another's role is not theirs to see.
    const own = change.principalId === caller.principal.principalId;
    return own || can(caller, placed(ancestorIds), 'grant') ? answer() : undefined;
  }
  // A link to an object the caller may not read is not theirs to see (the relations list hides it too);
  // one to an object gone before the change was recorded (purged) cannot be placed: only those who read
  // everything see it.
  if (change.target === null && !caller.systemAdmin) return undefined;
  if (change.target && !can(caller, change.target, 'read')) return undefined;
  if (can(caller, placed(ancestorIds), 'read')) return answer();
  if (previousAncestorIds && can(caller, placed(previousAncestorIds), 'read')) return answer('REMOVED');
  return undefined;
}

export interface ChangesQuery {
  cursor?: string;
  /** Start with the changes recorded at or after this time (instead of a cursor). */
  since?: string;
  pageSize?: number;
}

export async function changesFor(caller: Caller, query: ChangesQuery, now = Date.now()) {
  const oldest = positionAt(now - CHANGE_RETENTION_DAYS * DAY_MS);
  if (query.cursor && query.since) {
    throw new ValidationError([
      { in: 'query', path: '$.since', rule: 'exclusive', message: 'give a cursor or since, not both' },
    ]);
  }
  // A cursor that far ahead would pass over every change recorded until then, unseen: a client's mistake.
  if (query.since && query.since > new Date(now + SINCE_CLOCK_SKEW_MS).toISOString()) {
    throw new ValidationError([
      {
        in: 'query',
        path: '$.since',
        rule: 'not_future',
        message:
          'is in the future: no change is recorded after it yet, and following from it would skip those that will be',
      },
    ]);
  }
  // A time sorts before every change recorded at it (their positions go on with `#<changeId>`). A time
  // of milliseconds (`since`, or a cursor's horizon issued before positions had microseconds) starts
  // with its first microsecond.
  const position = query.cursor ? decodeCursor(query.cursor) : query.since;
  const after = !position ? oldest : position.includes('#') ? position : timePosition(position);
  // A cursor is a position the feed had passed when it issued it: one ahead of the clock was not issued.
  if (query.cursor && after > positionAt(now + SINCE_CLOCK_SKEW_MS)) {
    throw notACursor();
  }
  if (after < oldest) {
    throw new GoneError(
      'CURSOR_EXPIRED',
      `The feed keeps changes ${CHANGE_RETENTION_DAYS} days and this cursor is older: list the objects again, then follow the feed from the cursor of a fresh first page`,
    );
  }
  const settledUntil = new Date(now - config().changesSettleMs).toISOString();
  const horizon = timePosition(settledUntil);
  const limit = query.pageSize ?? DEFAULT_PAGE_SIZE;
  const range =
    after < horizon
      ? await readChangeRange({ after, before: horizon, limit })
      : { changes: [], position: after, more: false };
  const seen = range.changes.map((change) => asSeenBy(caller, change));
  // While more follow, the position is the page's last change: one the caller does not see is not named.
  const hiddenLast = range.more && seen.length > 0 && seen.at(-1) === undefined;
  return {
    changes: seen.flatMap((change) => change ?? []),
    cursor: encodeCursor(hiddenLast ? unnamed(range.position) : range.position),
    hasMore: range.more,
    // A time as the API shows times (milliseconds), for `since`.
    settledUntil,
  };
}
