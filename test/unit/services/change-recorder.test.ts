/** How the recorder stamps changes: in the stream's order, and never ahead of the clock. */

import { BatchWriteCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type ChangeStreamRecord, recordChanges } from '#shared/services/change-recorder.ts';

const ddb = mockClient(DynamoDBDocumentClient);
const NOW = new Date('2026-11-25T10:11:12.345Z');

beforeEach(() => {
  ddb.reset();
  ddb.on(BatchWriteCommand).resolves({});
  // The clock stands still: every change is recorded in the same millisecond.
  vi.useFakeTimers({ now: NOW, toFake: ['Date'] });
});
afterEach(() => vi.useRealTimers());

/** A new object's working copy, as the stream reports its creation. */
function created(n: number): ChangeStreamRecord {
  const nodeId = `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
  return {
    eventID: `event-${String(n).padStart(4, '0')}`,
    eventName: 'INSERT',
    dynamodb: {
      Keys: marshall({ PK: `NODE#${nodeId}`, SK: 'DRAFT' }) as never,
      NewImage: marshall({
        nodeId,
        nodeType: 'ROLE',
        nodeVersionId: `V${n}`,
        version: '0.0001',
        nodeStatus: 'IN_PROGRESS',
        parentId: 'E',
        ancestorIds: ['E'],
        deleted: false,
      }) as never,
    },
  };
}

const written = () =>
  ddb
    .commandCalls(BatchWriteCommand)
    .flatMap((call) => Object.values(call.args[0].input.RequestItems ?? {}).flat())
    .map((request) => request.PutRequest?.Item as { SK: string; changeId: string; recordedAt: string });

describe('change stamps', () => {
  it('keep the stream order within one millisecond, a thousand to it, and do not run ahead of the clock', async () => {
    const records = Array.from({ length: 600 }, (_, n) => created(n));
    expect(await recordChanges(records)).toBe(600);

    const items = written();
    expect(items).toHaveLength(600);
    const inFeedOrder = [...items].sort((a, b) => (a.SK < b.SK ? -1 : 1));
    expect(inFeedOrder.map((item) => item.changeId)).toEqual(records.map((record) => record.eventID));
    // Recorded now, not 600 ms from now: the feed shows them once the settle window has passed.
    expect(new Set(items.map((item) => item.recordedAt))).toEqual(new Set([NOW.toISOString()]));
    expect(inFeedOrder[0]?.SK).toMatch(/^2026-11-25T10:11:12\.345\d{3}Z#event-0000$/);
  });
});
