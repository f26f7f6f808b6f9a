import {
  ConditionalCheckFailedException,
  ProvisionedThroughputExceededException,
  TransactionCanceledException,
} from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { commitNodeWrites, NodeWriteConflict } from '#shared/data/node-write-path.ts';
import { ServiceUnavailableError } from '#shared/domain/errors.ts';
import { sampleNode } from '../../fixtures/nodes.ts';

const ddb = mockClient(DynamoDBDocumentClient);
beforeEach(() => ddb.reset());

const node = sampleNode();

describe('commitNodeWrites', () => {
  it('writes a single replace as one conditional PutItem on the node key, with index keys', async () => {
    ddb.on(PutCommand).resolves({});
    await commitNodeWrites([{ kind: 'replace', node, expectedNodeVersionId: 'OLD' }]);
    const [call] = ddb.commandCalls(PutCommand);
    expect(call?.args[0].input).toEqual({
      TableName: 'unit-test-table',
      Item: expect.objectContaining({
        PK: `NODE#${node.nodeId}`,
        SK: 'DRAFT',
        GSI1PK: `PARENT#${node.parentId}`,
        GSI1SK: `NODE#${node.nodeId}`,
        GSI2PK: 'TYPE#DOCUMENT',
        GSI2SK: `NODE#${node.nodeId}`,
        entity: 'Node',
        nodeVersionId: node.nodeVersionId,
      }),
      ConditionExpression: 'nodeVersionId = :expected AND deleted = :false',
      ExpressionAttributeValues: { ':expected': 'OLD', ':false': false },
    });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('soft-deletes into DELETED# index keys (lists skip them) and removes the parent’s child record, together', async () => {
    ddb.on(TransactWriteCommand).resolves({});
    await commitNodeWrites([
      { kind: 'replace', node: { ...node, deleted: true }, expectedNodeVersionId: 'OLD' },
    ]);
    const items = ddb.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems;
    expect(items?.[0]?.Put?.Item).toMatchObject({
      GSI1PK: `DELETED#PARENT#${node.parentId}`,
      GSI2PK: 'DELETED#TYPE#DOCUMENT',
    });
    expect(items?.[1]).toEqual({
      Delete: {
        TableName: 'unit-test-table',
        Key: { PK: `NODE#${node.parentId}`, SK: `CHILD#${node.nodeId}` },
      },
    });
  });

  it('commits several writes in one transaction, with the parent checked to be alive', async () => {
    ddb.on(TransactWriteCommand).resolves({});
    await commitNodeWrites([
      { kind: 'requireLive', nodeId: 'PARENT' },
      { kind: 'create', node },
    ]);
    const items = ddb.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems;
    expect(items).toEqual([
      {
        ConditionCheck: {
          TableName: 'unit-test-table',
          Key: { PK: 'NODE#PARENT', SK: 'DRAFT' },
          ConditionExpression: 'attribute_exists(PK) AND deleted = :false',
          ExpressionAttributeValues: { ':false': false },
        },
      },
      {
        Put: {
          TableName: 'unit-test-table',
          Item: expect.objectContaining({ PK: `NODE#${node.nodeId}`, SK: 'DRAFT' }),
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      {
        Put: {
          TableName: 'unit-test-table',
          Item: {
            PK: `NODE#${node.parentId}`,
            SK: `CHILD#${node.nodeId}`,
            entity: 'ChildLink',
            childId: node.nodeId,
            nodeType: 'DOCUMENT',
          },
        },
      },
    ]);
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
        CancellationReasons: [{ Code: 'ConditionalCheckFailed' }, { Code: 'None' }, { Code: 'None' }],
      }),
    );
    const error = await commitNodeWrites([
      { kind: 'requireLive', nodeId: 'PARENT' },
      { kind: 'create', node },
    ]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NodeWriteConflict);
    expect((error as NodeWriteConflict).failed).toEqual([{ kind: 'requireLive', nodeId: 'PARENT' }]);
  });

  it('turns throttling and transaction conflicts into a retryable 503', async () => {
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
    await expect(
      commitNodeWrites([
        { kind: 'requireLive', nodeId: 'P' },
        { kind: 'create', node },
      ]),
    ).rejects.toBeInstanceOf(ServiceUnavailableError);
  });

  it('refuses more items than one transaction holds (a create with a parent takes two)', async () => {
    const writes = Array.from({ length: 51 }, () => ({ kind: 'create' as const, node }));
    await expect(commitNodeWrites(writes)).rejects.toThrow(/at most 100 items, got 102/);
  });
});
