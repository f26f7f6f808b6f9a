import {
  ConditionalCheckFailedException,
  ProvisionedThroughputExceededException,
  TransactionCanceledException,
} from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { commitNodeWrites, NodeWriteConflict } from '#shared/data/node-write-path.ts';
import { ServiceUnavailableError } from '#shared/domain/errors.ts';
import { sampleNode } from '../../fixtures/nodes.ts';

const ddb = mockClient(DynamoDBDocumentClient);
beforeEach(() => ddb.reset());

const node = sampleNode();

describe('commitNodeWrites', () => {
  it('writes a single replace as one conditional PutItem on the node key, with its list attributes', async () => {
    ddb.on(PutCommand).resolves({});
    await commitNodeWrites([{ kind: 'replace', node, expectedNodeVersionId: 'OLD' }]);
    const [call] = ddb.commandCalls(PutCommand);
    expect(call?.args[0].input).toEqual({
      TableName: 'unit-test-table',
      Item: expect.objectContaining({
        PK: `NODE#${node.nodeId}`,
        SK: 'DRAFT',
        lpP: `P#${node.parentId}`,
        lpE: `E#${node.environmentId}`,
        lpT: `T#${node.environmentId}#DOCUMENT`,
        lsI: node.nodeId,
        lsN: `travel policy\u0001${node.nodeId}`,
        lsC: `${node.creationDate}#${node.nodeId}`,
        lsM: `${node.modificationDate}#${node.nodeId}`,
        lineage: [...node.ancestorIds, node.nodeId],
        searchName: 'travel policy',
        hasDescription: false,
        entity: 'Node',
        nodeVersionId: node.nodeVersionId,
      }),
      // Nor may it undo the mark of a first relation linked since the node was read.
      ConditionExpression:
        'nodeVersionId = :expected AND deleted = :false AND (attribute_not_exists(hasRelations) OR hasRelations = :hasRelations)',
      ExpressionAttributeValues: { ':expected': 'OLD', ':false': false, ':hasRelations': false },
    });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('soft-deletes out of the list indexes, removes the child record and counts one less above, together', async () => {
    ddb.on(TransactWriteCommand).resolves({});
    await commitNodeWrites([
      { kind: 'replace', node: { ...node, deleted: true }, expectedNodeVersionId: 'OLD' },
    ]);
    const items = ddb.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems;
    const put = items?.[0]?.Put?.Item ?? {};
    for (const attribute of ['lpP', 'lpE', 'lpT', 'lsI', 'lsN', 'lsC', 'lsM'])
      expect(put).not.toHaveProperty(attribute);
    expect(items?.[1]).toEqual({
      Delete: {
        TableName: 'unit-test-table',
        Key: { PK: `NODE#${node.parentId}`, SK: `CHILD#${node.nodeId}` },
      },
    });
    const [environmentId, parentId] = node.ancestorIds;
    expect(items?.slice(2).map((i) => i.Update)).toEqual([
      {
        TableName: 'unit-test-table',
        Key: { PK: `NODE#${parentId}`, SK: expect.stringMatching(/^COUNTS#\d+$/) },
        UpdateExpression: 'ADD #c0 :c0, #c1 :c1',
        ExpressionAttributeNames: { '#c0': 'k#DOCUMENT#IN_PROGRESS', '#c1': 'd#DOCUMENT#IN_PROGRESS' },
        ExpressionAttributeValues: { ':c0': -1, ':c1': -1 },
      },
      {
        TableName: 'unit-test-table',
        Key: { PK: `NODE#${environmentId}`, SK: expect.stringMatching(/^COUNTS#\d+$/) },
        UpdateExpression: 'ADD #c0 :c0',
        ExpressionAttributeNames: { '#c0': 'd#DOCUMENT#IN_PROGRESS' },
        ExpressionAttributeValues: { ':c0': -1 },
      },
    ]);
  });

  it('moves a count between statuses when a write changes the status, and none otherwise', async () => {
    ddb.on(TransactWriteCommand).resolves({});
    await commitNodeWrites([
      { kind: 'replace', node, expectedNodeVersionId: 'OLD', previousStatus: 'PUBLISHED' },
    ]);
    const updates = ddb.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems?.slice(1) ?? [];
    expect(updates[0]?.Update?.ExpressionAttributeNames).toEqual({
      '#c0': 'k#DOCUMENT#PUBLISHED',
      '#c1': 'd#DOCUMENT#PUBLISHED',
      '#c2': 'k#DOCUMENT#IN_PROGRESS',
      '#c3': 'd#DOCUMENT#IN_PROGRESS',
    });
    expect(updates[0]?.Update?.ExpressionAttributeValues).toEqual({
      ':c0': -1,
      ':c1': -1,
      ':c2': 1,
      ':c3': 1,
    });
  });

  it('commits several writes in one transaction; the parent must not be leased by a delete, checked on its counts', async () => {
    ddb.on(TransactWriteCommand).resolves({});
    await commitNodeWrites([
      { kind: 'requireLive', nodeId: node.parentId as string, at: '2026-11-23T00:00:00.000Z' },
      { kind: 'create', node },
    ]);
    const items = ddb.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems ?? [];
    // The node, its parent's record of it, and the counts above it: no extra item for the check.
    expect(items.map((i) => Object.keys(i)[0])).toEqual(['Put', 'Put', 'Update', 'Update']);
    expect(items[1]?.Put?.Item).toEqual({
      PK: `NODE#${node.parentId}`,
      SK: `CHILD#${node.nodeId}`,
      entity: 'ChildLink',
      childId: node.nodeId,
      nodeType: 'DOCUMENT',
    });
    const parentCounts = items[2]?.Update;
    expect(parentCounts).toMatchObject({
      Key: { PK: `NODE#${node.parentId}`, SK: expect.stringMatching(/^COUNTS#\d+$/) },
      ConditionExpression: 'attribute_not_exists(#lease) OR #lease < :at',
      ExpressionAttributeNames: expect.objectContaining({ '#lease': 'deletingUntil' }),
      ExpressionAttributeValues: expect.objectContaining({ ':at': '2026-11-23T00:00:00.000Z' }),
    });
    // Every count of the commit goes to one shard.
    expect(new Set(items.slice(2).map((i) => i.Update?.Key?.SK)).size).toBe(1);
  });

  it('turns a failed condition into a NodeWriteConflict naming the failed writes', async () => {
    ddb.on(PutCommand).rejects(new ConditionalCheckFailedException({ message: 'failed', $metadata: {} }));
    await expect(
      commitNodeWrites([{ kind: 'replace', node, expectedNodeVersionId: 'OLD' }]),
    ).rejects.toBeInstanceOf(NodeWriteConflict);

    ddb.on(TransactWriteCommand).rejects(
      new TransactionCanceledException({
        message: 'cancelled',
        $metadata: {},
        // The parent's counts carry the lease check.
        CancellationReasons: [
          { Code: 'None' },
          { Code: 'None' },
          { Code: 'ConditionalCheckFailed' },
          { Code: 'None' },
        ],
      }),
    );
    const parentLive = {
      kind: 'requireLive',
      nodeId: node.parentId as string,
      at: '2026-11-23T00:00:00.000Z',
    } as const;
    const error = await commitNodeWrites([parentLive, { kind: 'create', node }]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NodeWriteConflict);
    expect((error as NodeWriteConflict).failed).toEqual([parentLive]);
  });

  it('turns throttling, and conflicts that outlast the retry budget, into a retryable 503', async () => {
    ddb
      .on(PutCommand)
      .rejects(new ProvisionedThroughputExceededException({ message: 'slow down', $metadata: {} }));
    await expect(
      commitNodeWrites([{ kind: 'replace', node, expectedNodeVersionId: 'OLD' }]),
    ).rejects.toBeInstanceOf(ServiceUnavailableError);
    ddb.on(TransactWriteCommand).rejects(
      new TransactionCanceledException({
        message: 'c',
        $metadata: {},
        CancellationReasons: [{ Code: 'TransactionConflict' }, { Code: 'None' }],
      }),
    );
    // Conflicts are tried again for CONFLICT_BUDGET_MS: let that time pass at once.
    vi.useFakeTimers();
    const commit = commitNodeWrites([{ kind: 'create', node }]).catch((e: unknown) => e);
    for (let i = 0; i < 40; i++) await vi.advanceTimersByTimeAsync(500);
    vi.useRealTimers();
    expect(await commit).toBeInstanceOf(ServiceUnavailableError);
    expect(ddb.commandCalls(TransactWriteCommand).length).toBeGreaterThan(5);
  });

  it('tries a transaction again when it met another one on a shared counts item', async () => {
    const conflict = new TransactionCanceledException({
      message: 'c',
      $metadata: {},
      CancellationReasons: [{ Code: 'None' }, { Code: 'None' }, { Code: 'TransactionConflict' }],
    });
    ddb.on(TransactWriteCommand).rejectsOnce(conflict).resolves({});
    await commitNodeWrites([{ kind: 'create', node }]);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(2);
  });

  it('refuses more items than one transaction holds (counts included)', async () => {
    // Each create: the node, its child record; all share the two counts items above them.
    const writes = Array.from({ length: 50 }, (_, i) => ({
      kind: 'create' as const,
      node: { ...node, nodeId: `N${i}` },
    }));
    await expect(commitNodeWrites(writes)).rejects.toThrow(/at most 100 items, got 102/);
  });
});

describe('restores and purges of the trash', () => {
  const deletedAt = '2026-11-23T00:00:00.000Z';

  it('begins a purge only on a root as its delete left it, marking it and its pointer together', async () => {
    ddb.on(TransactWriteCommand).resolves({});
    await commitNodeWrites([
      {
        kind: 'beginPurge',
        rootId: node.nodeId,
        deletedAt,
        expectedNodeVersionId: 'DELETED',
        at: '2026-11-24T00:00:00.000Z',
      },
    ]);
    const items = ddb.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems ?? [];
    const mark = {
      UpdateExpression: 'SET #purge = if_not_exists(#purge, :at)',
      ExpressionAttributeNames: { '#purge': 'purgeStartedAt' },
    };
    expect(items).toEqual([
      {
        Update: {
          TableName: 'unit-test-table',
          Key: { PK: `NODE#${node.nodeId}`, SK: 'TRASH' },
          ...mark,
          ConditionExpression: 'deletedAt = :deletedAt',
          ExpressionAttributeValues: { ':deletedAt': deletedAt, ':at': '2026-11-24T00:00:00.000Z' },
        },
      },
      {
        Update: {
          TableName: 'unit-test-table',
          Key: { PK: `NODE#${node.nodeId}`, SK: 'DRAFT' },
          ...mark,
          ConditionExpression: 'nodeVersionId = :expected AND deleted = :true',
          ExpressionAttributeValues: {
            ':expected': 'DELETED',
            ':true': true,
            ':at': '2026-11-24T00:00:00.000Z',
          },
        },
      },
    ]);
  });

  it('takes a subtree out of the trash, its pointer only if that still names the same delete', async () => {
    ddb.on(TransactWriteCommand).resolves({});
    await commitNodeWrites([{ kind: 'untrash', deletedAt, rootId: node.nodeId }]);
    const items = ddb.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems ?? [];
    expect(items).toEqual([
      { Delete: { TableName: 'unit-test-table', Key: { PK: 'TRASH', SK: `${deletedAt}#${node.nodeId}` } } },
      {
        Delete: {
          TableName: 'unit-test-table',
          Key: { PK: `NODE#${node.nodeId}`, SK: 'TRASH' },
          // A later delete of the root wrote its own pointer: its trash stays whole.
          ConditionExpression: 'attribute_not_exists(PK) OR deletedAt = :deletedAt',
          ExpressionAttributeValues: { ':deletedAt': deletedAt },
        },
      },
    ]);
  });

  it('restores a node only if no purge has marked it, and keeps the deleted copy in its history', async () => {
    ddb.on(TransactWriteCommand).resolves({});
    ddb.on(PutCommand).resolves({});
    const deletedCopy = { ...node, nodeVersionId: 'DELETED', deleted: true };
    await commitNodeWrites([
      { kind: 'restore', node, previous: deletedCopy, expectedNodeVersionId: 'DELETED', rootId: node.nodeId },
    ]);
    const items = ddb.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems ?? [];
    expect(items[0]?.Put).toMatchObject({
      ConditionExpression: 'nodeVersionId = :expected AND deleted = :true AND attribute_not_exists(#purge)',
      ExpressionAttributeNames: { '#purge': 'purgeStartedAt' },
    });
    const kept = ddb.commandCalls(PutCommand).map((call) => call.args[0].input.Item);
    expect(kept).toEqual([
      expect.objectContaining({ PK: `NODE#${node.nodeId}`, SK: 'VERSION#DELETED', deleted: true }),
    ]);
  });
});
