import {
  BatchGetCommand,
  DynamoDBDocumentClient,
  GetCommand,
  QueryCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { nodes } from '#shared/data/entities/nodes.ts';
import { sessions, users } from '#shared/data/entities/users.ts';
import { findLiveChildren, findNode } from '#shared/data/node-repository.ts';
import { findSessionWithUser, touchSession } from '#shared/data/session-repository.ts';
import { findUserByUsername } from '#shared/data/user-repository.ts';
import { sampleNode } from '../../fixtures/nodes.ts';
import { sampleSession, sampleUser } from '../../fixtures/users.ts';

const ddb = mockClient(DynamoDBDocumentClient);
beforeEach(() => ddb.reset());

describe('node repository', () => {
  it('reads a node by key, strongly consistent, without its item-only attributes', async () => {
    const node = sampleNode();
    ddb.on(GetCommand).resolves({ Item: nodes.toItem(node) });
    expect(nodes.toItem(node)).toMatchObject({
      PK: `NODE#${node.nodeId}`,
      lpP: expect.any(String),
      url: node.fields.url,
    });
    expect(await findNode('N1', 'PUBLISHED')).toEqual(node);
    expect(ddb.commandCalls(GetCommand)[0]?.args[0].input).toEqual({
      TableName: 'unit-test-table',
      Key: { PK: 'NODE#N1', SK: 'PUBLISHED' },
      ConsistentRead: true,
    });
  });

  it('answers null for a missing node', async () => {
    ddb.on(GetCommand).resolves({});
    expect(await findNode('N2')).toBeNull();
  });

  it('reads live children from the parent’s child records across pages, then the children by key', async () => {
    ddb
      .on(QueryCommand)
      .resolvesOnce({ Items: [{ childId: 'C1', nodeType: 'DOCUMENT' }], LastEvaluatedKey: { PK: 'x' } })
      .resolvesOnce({ Items: [{ childId: 'C2', nodeType: 'DOCUMENT' }] });
    const children = [
      nodes.toItem(sampleNode({ nodeId: 'C1' })),
      nodes.toItem(sampleNode({ nodeId: 'C2', deleted: true })),
    ];
    ddb.on(BatchGetCommand).resolves({ Responses: { 'unit-test-table': children } });
    expect((await findLiveChildren('P1')).map((n) => n.nodeId)).toEqual(['C1']);
    expect(ddb.commandCalls(QueryCommand)[0]?.args[0].input).toMatchObject({
      KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
      ExpressionAttributeValues: { ':pk': 'NODE#P1', ':prefix': 'CHILD#' },
      ConsistentRead: true,
    });
    expect(ddb.commandCalls(QueryCommand)[1]?.args[0].input.ExclusiveStartKey).toEqual({ PK: 'x' });
  });
});

describe('session repository', () => {
  it('reads session and user in one consistent BatchGet', async () => {
    ddb.on(BatchGetCommand).resolves({
      Responses: {
        'unit-test-table': [users.toItem(sampleUser()), sessions.toItem(sampleSession())],
      },
    });
    const { session, user } = await findSessionWithUser('S1', 'U1');
    expect(session).toEqual(sampleSession());
    expect(user).toEqual(sampleUser());
    expect(ddb.commandCalls(BatchGetCommand)[0]?.args[0].input).toEqual({
      RequestItems: {
        'unit-test-table': {
          Keys: [
            { PK: 'SESSION#S1', SK: 'SESSION' },
            { PK: 'USER#U1', SK: 'PROFILE' },
          ],
          ConsistentRead: true,
        },
      },
    });
  });

  it('touches a session only if it still exists', async () => {
    ddb.on(UpdateCommand).resolves({});
    expect(await touchSession('S1', '2026-11-22T00:00:00.000Z')).toBe(true);
    expect(ddb.commandCalls(UpdateCommand)[0]?.args[0].input).toMatchObject({
      Key: { PK: 'SESSION#S1', SK: 'SESSION' },
      UpdateExpression: 'SET #field = :at',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeNames: { '#field': 'lastSeenAt' },
    });
  });
});

describe('user repository', () => {
  it('finds a user through the case-insensitive username item', async () => {
    ddb
      .on(GetCommand, { Key: { PK: 'USERNAME#ann', SK: 'USERNAME' } })
      .resolves({ Item: { principalId: 'U1' } })
      .on(GetCommand, { Key: { PK: 'USER#U1', SK: 'PROFILE' } })
      .resolves({ Item: users.toItem(sampleUser({ username: 'Ann' })) });
    expect(await findUserByUsername('ANN')).toEqual(sampleUser({ username: 'Ann' }));
  });
});
