import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { type ListEntry, listEntries } from '#shared/data/list-repository.ts';

const ddb = mockClient(DynamoDBDocumentClient);
beforeEach(() => ddb.reset());

const entry = (nodeId: string, name: string) => ({ PK: `NODE#${nodeId}`, lsN: `${name}\u0001${nodeId}` });

async function take(stream: AsyncGenerator<ListEntry>, n: number): Promise<string[]> {
  const taken: string[] = [];
  for await (const e of stream) {
    taken.push(e.nodeId);
    if (taken.length === n) break;
  }
  return taken;
}

describe('listEntries', () => {
  it('merges partitions into one order and reads each only as far as the page needs', async () => {
    ddb
      .on(QueryCommand, { ExpressionAttributeValues: { ':pk': 'T#E1#ROLE' } })
      .resolves({ Items: [entry('R1', 'ann'), entry('R2', 'carl')], LastEvaluatedKey: { PK: 'more' } })
      .on(QueryCommand, { ExpressionAttributeValues: { ':pk': 'T#E1#ASSET' } })
      .resolves({ Items: [entry('A1', 'bea'), entry('A2', 'dan')] });
    const partitions = [
      { scope: 'type' as const, partition: 'T#E1#ROLE' },
      { scope: 'type' as const, partition: 'T#E1#ASSET' },
    ];
    const stream = listEntries(partitions, {}, { sortKey: 'name', order: 'ASC' }, 2);
    expect(await take(stream, 3)).toEqual(['R1', 'A1', 'R2']);
    const inputs = ddb.commandCalls(QueryCommand).map((call) => call.args[0].input);
    expect(inputs).toHaveLength(2);
    expect(inputs[0]).toMatchObject({ IndexName: 'type-name', Limit: 3, ScanIndexForward: true });
    expect(inputs[0]?.FilterExpression).toBeUndefined();
  });

  it('resumes after a cursor’s sort value and filters on the index entries', async () => {
    ddb.on(QueryCommand).resolves({ Items: [] });
    const partitions = [{ scope: 'environment' as const, partition: 'E#E1', within: ['F1'] }];
    const filter = { nodeStatus: 'IN_PROGRESS' as const, nameContains: 'pol', needsAttention: true };
    await take(
      listEntries(partitions, filter, { sortKey: 'modificationDate', order: 'DESC', after: 'X' }, 50),
      1,
    );
    const input = ddb.commandCalls(QueryCommand)[0]?.args[0].input;
    expect(input).toMatchObject({
      IndexName: 'environment-modificationDate',
      KeyConditionExpression: '#pk = :pk AND #sk < :upper',
      ScanIndexForward: false,
      ExpressionAttributeValues: expect.objectContaining({
        ':pk': 'E#E1',
        ':upper': 'X',
        ':w0': 'F1',
        ':name': 'pol',
      }),
    });
    expect(input?.FilterExpression).toBe(
      '#nodeStatus IN (:s0) AND contains(#searchName, :name) AND (#status = :inProgress OR #described = :false) AND (contains(#lineage, :w0))',
    );
  });

  it('reads modifiedSince as a key range on the modificationDate index', async () => {
    ddb.on(QueryCommand).resolves({ Items: [] });
    const partitions = [{ scope: 'parent' as const, partition: 'P#F1' }];
    const range = {
      sortKey: 'modificationDate' as const,
      order: 'ASC' as const,
      atLeast: '2026-11-01T00:00:00.000Z',
    };
    await take(listEntries(partitions, {}, range, 50), 1);
    expect(ddb.commandCalls(QueryCommand)[0]?.args[0].input).toMatchObject({
      KeyConditionExpression: '#pk = :pk AND #sk >= :lower',
      ExpressionAttributeValues: { ':pk': 'P#F1', ':lower': '2026-11-01T00:00:00.000Z' },
    });
  });

  it('reads nothing when a walk down has passed the modifiedSince bound', async () => {
    ddb.on(QueryCommand).resolves({ Items: [] });
    const partitions = [{ scope: 'parent' as const, partition: 'P#F1' }];
    const range = {
      sortKey: 'modificationDate' as const,
      order: 'DESC' as const,
      atLeast: '2026-11-01T00:00:00.000Z',
      after: '2026-10-01T00:00:00.000Z#X',
    };
    expect(await take(listEntries(partitions, {}, range, 50), 1)).toEqual([]);
    expect(ddb.commandCalls(QueryCommand)).toHaveLength(0);
  });
});
