/** Rules of the node use cases that the integration tests cannot reach with only an administrator. */
import { DynamoDBDocumentClient, GetCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { ForbiddenError, NotFoundError } from '#shared/domain/errors.ts';
import type { Caller } from '#shared/domain/user.ts';
import { createNode, deleteNode } from '#shared/services/node-service.ts';
import { sampleNode } from '../../fixtures/nodes.ts';

const ddb = mockClient(DynamoDBDocumentClient);
beforeEach(() => ddb.reset());

const editor: Caller = {
  principal: {
    principalId: 'U2',
    username: 'ed',
    name: 'Ed',
    firstName: null,
    middleName: null,
    lastName: null,
    phone: null,
    email: null,
  },
  sessionId: 'S2',
  systemAdmin: false,
  grants: {},
};

describe('environments', () => {
  it('only system administrators create them; nothing is written otherwise', async () => {
    const attempt = createNode(editor, { '@type': 'NodeElement', nodeType: 'ENVIRONMENT', name: 'Mine' });
    await expect(attempt).rejects.toBeInstanceOf(ForbiddenError);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
    expect(ddb.commandCalls(PutCommand)).toHaveLength(0);
  });

  it('only system administrators delete them, not even their environment admins', async () => {
    const environment = sampleNode({
      nodeType: 'ENVIRONMENT',
      parentId: null,
      ancestorIds: [],
      documentType: null,
      url: null,
    });
    ddb.on(GetCommand).resolves({ Item: { PK: `NODE#${environment.nodeId}`, SK: 'DRAFT', ...environment } });
    const environmentAdmin = { ...editor, grants: { [environment.nodeId]: 'ENVIRONMENT_ADMIN' as const } };
    await expect(deleteNode(environmentAdmin, environment.nodeId, undefined)).rejects.toBeInstanceOf(
      ForbiddenError,
    );
    // Without any role there, the environment does not even exist for the caller.
    await expect(deleteNode(editor, environment.nodeId, undefined)).rejects.toBeInstanceOf(NotFoundError);
    expect(ddb.commandCalls(PutCommand)).toHaveLength(0);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });
});
