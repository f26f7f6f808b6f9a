/**
 * Pages of the change feed merge its shards without skipping or repeating a change, whatever the page
 * size and however the changes fall in the shards (the shards answer as DynamoDB queries do: key order,
 * BETWEEN inclusive, at most Limit items and a LastEvaluatedKey when cut short).
 */
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CHANGE_SHARDS, changeShardOf, readChangeRange } from '#shared/data/change-repository.ts';

const ddb = mockClient(DynamoDBDocumentClient);

function serve(items: { PK: string; SK: string }[]) {
  ddb.reset();
  ddb.on(QueryCommand).callsFake(async (input) => {
    const values = input.ExpressionAttributeValues as Record<string, string>;
    const inRange = items
      .filter(
        (i) =>
          i.PK === values[':pk'] &&
          i.SK >= (values[':after'] as string) &&
          i.SK <= (values[':before'] as string),
      )
      .sort((a, b) => (a.SK < b.SK ? -1 : 1));
    const page = inRange.slice(0, input.Limit);
    return {
      Items: page,
      ...(inRange.length > (input.Limit as number)
        ? { LastEvaluatedKey: { PK: values[':pk'], SK: page.at(-1)?.SK } }
        : {}),
    };
  });
}

const START = '2026-11-01T00:00:00.000Z';
const HORIZON = '2026-11-02T00:00:00.000Z';

describe('readChangeRange', () => {
  it('walks every change once, in order, for any page size and spread over the shards', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({ ms: fc.integer({ min: 0, max: 86_399_999 }), object: fc.integer({ min: 0, max: 40 }) }),
          { maxLength: 120 },
        ),
        fc.integer({ min: 1, max: 30 }),
        async (writes, pageSize) => {
          const items = writes.map(({ ms, object }, i) => {
            const nodeId = `node-${object}`;
            const recordedAt = new Date(Date.parse(START) + ms).toISOString();
            const changeId = `c${String(i).padStart(4, '0')}`;
            return {
              PK: `CHANGES#${changeShardOf(nodeId)}`,
              SK: `${recordedAt}#${changeId}`,
              nodeId,
              changeId,
              recordedAt,
            };
          });
          serve(items);
          const walked: string[] = [];
          let after = START;
          for (let pages = 0; ; pages++) {
            expect(pages).toBeLessThan(500);
            const page = await readChangeRange({ after, before: HORIZON, limit: pageSize });
            expect(page.changes.length).toBeLessThanOrEqual(pageSize);
            walked.push(...page.changes.map((c) => `${c.recordedAt}#${c.changeId}`));
            after = page.position;
            if (!page.more) break;
          }
          expect(after).toBe(HORIZON);
          expect(walked).toEqual(items.map((i) => i.SK).sort());
        },
      ),
      { numRuns: 150 },
    );
  });

  it('spreads objects over all its shards', () => {
    const used = new Set(Array.from({ length: 200 }, () => changeShardOf(crypto.randomUUID())));
    expect(used.size).toBe(CHANGE_SHARDS);
  });
});
