/** Rules of the node use cases that the integration tests cannot reach with only an administrator. */

import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
} from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { nodes } from '#shared/data/entities/nodes.ts';
import { ForbiddenError, NotFoundError, VersionConflictError } from '#shared/domain/errors.ts';
import type { Caller } from '#shared/domain/user.ts';
import { createNode, deleteNode, replaceWorkingCopy } from '#shared/services/node-service.ts';
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
      fields: {},
    });
    ddb.on(GetCommand).resolves({ Item: nodes.toItem(environment) });
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

describe('deleting a subtree', () => {
  it('finds children through the parent’s consistent child records, not the lagging index', async () => {
    const admin: Caller = { ...editor, systemAdmin: true };
    const folder = sampleNode({
      nodeId: 'F0000000-0000-4000-8000-000000000001',
      nodeType: 'DOCUMENT_SET',
      fields: {},
    });
    const child = sampleNode({
      nodeId: 'C1000000-0000-4000-8000-000000000001',
      parentId: folder.nodeId,
      ancestorIds: [...folder.ancestorIds, folder.nodeId],
    });
    ddb.on(GetCommand).resolves({ Item: nodes.toItem(folder) });
    // Neither has relations to settle after the delete.
    ddb.on(QueryCommand).resolves({ Items: [] });
    ddb
      .on(QueryCommand, {
        ExpressionAttributeValues: { ':pk': `NODE#${folder.nodeId}`, ':prefix': 'CHILD#' },
      })
      .resolves({ Items: [{ childId: child.nodeId, nodeType: child.nodeType }] })
      .on(QueryCommand, { ExpressionAttributeValues: { ':pk': `NODE#${child.nodeId}`, ':prefix': 'CHILD#' } })
      .resolves({ Items: [] });
    const childItems = [nodes.toItem(child)];
    ddb.on(BatchGetCommand).resolves({ Responses: { 'unit-test-table': childItems } });
    ddb.on(TransactWriteCommand).resolves({});

    const deleted = await deleteNode(admin, folder.nodeId, undefined);
    expect(deleted.map((n) => n.nodeId)).toEqual([folder.nodeId, child.nodeId]);
    for (const call of ddb.commandCalls(QueryCommand)) expect(call.args[0].input.ConsistentRead).toBe(true);
    const items = ddb.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems ?? [];
    // Deepest first, the folder last; each with its parent's child record moved to the trash, then the
    // trash entry (and its pointer in the folder's partition).
    const label = (i: (typeof items)[number]) =>
      i.Put
        ? `${i.Put.Item?.entity ?? 'pointer'} ${i.Put.Item?.SK}`
        : i.Delete
          ? `delete ${i.Delete.Key?.SK}`
          : i.Update?.Key?.SK;
    expect(items.map(label)).toEqual([
      'Node DRAFT',
      `delete CHILD#${child.nodeId}`,
      `TrashedChild TRASHED#${folder.nodeId}#${child.nodeId}`,
      'Node DRAFT',
      `delete CHILD#${folder.nodeId}`,
      `TrashedChild TRASHED#${folder.nodeId}#${folder.nodeId}`,
      expect.stringMatching(new RegExp(`^TrashEntry .*#${folder.nodeId}$`)),
      'pointer TRASH',
      // One less under the folder, its parent and the environment: all in one shard of each.
      ...Array(3).fill(expect.stringMatching(/^COUNTS#\d+$/)),
    ]);
    const shards = new Set(items.flatMap((i) => (i.Update ? [i.Update.Key?.SK] : [])));
    expect(shards.size).toBe(1);
  });

  it('settles the relations of deleted nodes a link marked or stored before the mark, and reads none for the others', async () => {
    const admin: Caller = { ...editor, systemAdmin: true };
    const folder = sampleNode({ nodeId: 'F2', nodeType: 'DOCUMENT_SET', fields: {} });
    const child = (nodeId: string, hasRelations: boolean | undefined) =>
      sampleNode({ nodeId, parentId: 'F2', ancestorIds: [...folder.ancestorIds, 'F2'], hasRelations });
    // C2 was linked; C3 was stored before nodes carried the mark (its attribute is absent).
    const [linked, unmarked] = [child('C2', true), child('C3', undefined)];
    ddb.on(GetCommand).resolves({ Item: nodes.toItem(folder) });
    ddb.on(QueryCommand).resolves({ Items: [] });
    ddb
      .on(QueryCommand, { ExpressionAttributeValues: { ':pk': 'NODE#F2', ':prefix': 'CHILD#' } })
      .resolves({ Items: [linked, unmarked].map((c) => ({ childId: c.nodeId, nodeType: c.nodeType })) });
    ddb
      .on(BatchGetCommand)
      .resolves({ Responses: { 'unit-test-table': [linked, unmarked].map((c) => nodes.toItem(c)) } });
    ddb.on(TransactWriteCommand).resolves({});

    expect(folder.hasRelations).toBe(false);
    expect(await deleteNode(admin, 'F2', undefined)).toHaveLength(3);
    const relationReads = ddb
      .commandCalls(QueryCommand)
      .map((call) => call.args[0].input.ExpressionAttributeValues ?? {})
      .filter((values) => values[':prefix'] === 'REL#')
      .map((values) => values[':pk'])
      .sort();
    expect(relationReads).toEqual(['NODE#C2', 'NODE#C3']);
  });

  it('splits a subtree of large objects over transactions that stay under DynamoDB’s 4 MB', async () => {
    const admin: Caller = { ...editor, systemAdmin: true };
    const folder = sampleNode({ nodeId: 'F1', nodeType: 'DOCUMENT_SET', fields: {} });
    // 30 documents with a 200 KB description each: 6 MB in all, far under 100 items.
    const description = `<p>${'x'.repeat(200_000)}</p>`;
    const children = Array.from({ length: 30 }, (_, i) =>
      sampleNode({
        nodeId: `C${i}`,
        parentId: 'F1',
        ancestorIds: [...folder.ancestorIds, 'F1'],
        richTextDescription: description,
      }),
    );
    const folderItem = nodes.toItem(folder);
    const childLinks = { Items: children.map((c) => ({ childId: c.nodeId, nodeType: c.nodeType })) };
    const childItems = children.map((c) => nodes.toItem(c));
    ddb.on(GetCommand).resolves({ Item: folderItem });
    ddb.on(QueryCommand).resolves({ Items: [] });
    ddb
      .on(QueryCommand, { ExpressionAttributeValues: { ':pk': 'NODE#F1', ':prefix': 'CHILD#' } })
      .resolves(childLinks);
    ddb.on(BatchGetCommand).resolves({ Responses: { 'unit-test-table': childItems } });
    ddb.on(TransactWriteCommand).resolves({});

    expect(await deleteNode(admin, 'F1', undefined)).toHaveLength(31);
    const commits = ddb
      .commandCalls(TransactWriteCommand)
      .map((call) => call.args[0].input.TransactItems ?? []);
    expect(commits.length).toBeGreaterThan(1);
    for (const items of commits) expect(Buffer.byteLength(JSON.stringify(items))).toBeLessThan(4_000_000);
    const deletedIds = commits.flatMap((items) =>
      items.flatMap((i) => (i.Put?.Item?.entity === 'Node' ? [i.Put.Item.nodeId] : [])),
    );
    expect([...deletedIds].sort()).toEqual(['F1', ...children.map((c) => c.nodeId)].sort());
    expect(deletedIds.at(-1)).toBe('F1');
  });
});

describe('writing a working copy beside a first relation', () => {
  const conditionFailed = () =>
    new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} });
  /** The puts of the working copy (a single put needs no transaction), not those of kept versions. */
  const workingCopyPuts = () =>
    ddb
      .commandCalls(PutCommand)
      .map((call) => call.args[0].input)
      .filter((put) => put.Item?.SK === 'DRAFT');

  it('never undoes hasRelations: the put is conditioned on it, and written again with it when a link came in', async () => {
    const read = sampleNode({ nodeId: 'A1000000-0000-4000-8000-000000000001' });
    const next = { ...read, name: 'Renamed', nodeVersionId: '0190a000-0000-7000-8000-000000000002' };
    ddb.on(PutCommand).resolves({});
    ddb
      .on(PutCommand, { Item: { SK: 'DRAFT' } })
      .rejectsOnce(conditionFailed())
      .resolves({});
    // Read again: the same version, now marked by a relation linked meanwhile.
    ddb.on(GetCommand).resolves({ Item: nodes.toItem({ ...read, hasRelations: true }) });

    await replaceWorkingCopy(read, next);

    const puts = workingCopyPuts();
    expect(puts).toHaveLength(2);
    expect(puts[0]?.ConditionExpression).toContain('hasRelations = :hasRelations');
    expect(puts[0]?.ExpressionAttributeValues?.[':hasRelations']).toBe(false);
    expect(puts[1]?.Item?.hasRelations).toBe(true);
    expect(puts[1]?.Item?.name).toBe('Renamed');
  });

  it('is a version conflict when the version moved', async () => {
    const read = sampleNode({ nodeId: 'A1000000-0000-4000-8000-000000000002' });
    ddb.on(PutCommand).resolves({});
    ddb.on(PutCommand, { Item: { SK: 'DRAFT' } }).rejects(conditionFailed());
    ddb.on(GetCommand).resolves({ Item: nodes.toItem({ ...read, nodeVersionId: 'another' }) });
    await expect(replaceWorkingCopy(read, { ...read, name: 'X' })).rejects.toBeInstanceOf(
      VersionConflictError,
    );
    expect(workingCopyPuts()).toHaveLength(1);
  });
});
