/**
 * Faults DynamoDB answers under load, injected into every repository: throttling and service errors
 * become a retryable 503 (never a 500), a transaction cancelled by a conflict is tried again and then
 * succeeds, and every write of more than one item is one transaction, so a fault leaves nothing half-written.
 */
import {
  InternalServerError,
  ProvisionedThroughputExceededException,
  ThrottlingException,
  TransactionCanceledException,
  TransactionConflictException,
} from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { createActions, listActionsOf, saveAction } from '#shared/data/action-repository.ts';
import { saveAnswer } from '#shared/data/idempotency-repository.ts';
import { markBootstrapped } from '#shared/data/installation-repository.ts';
import { clearFailures, countFailure, findFailureWindows } from '#shared/data/login-failures-repository.ts';
import { readCounts } from '#shared/data/node-counts.ts';
import { findNode, findNodes } from '#shared/data/node-repository.ts';
import { commitNodeWrites, leaseForDelete } from '#shared/data/node-write-path.ts';
import {
  createSession,
  deleteSession,
  findSessionWithUser,
  storedSessionsPage,
  touchSession,
} from '#shared/data/session-repository.ts';
import { saveSettings } from '#shared/data/settings-repository.ts';
import {
  createUser,
  deleteGrant,
  listUsersPage,
  putGrant,
  updateUser,
} from '#shared/data/user-repository.ts';
import type { StoredAction } from '#shared/domain/action.ts';
import { ServiceUnavailableError } from '#shared/domain/errors.ts';
import { sampleNode } from '../../fixtures/nodes.ts';
import { sampleSession, sampleUser } from '../../fixtures/users.ts';

const ddb = mockClient(DynamoDBDocumentClient);
beforeEach(() => ddb.reset());

const node = sampleNode();
const action = {
  actionId: 'A1',
  actionType: 'TRAINING',
  comment: '',
  dueDate: '2026-12-01',
  creationDate: '2026-11-22T10:00:00.000Z',
  nodeVersionId: 'V1',
  targetNode: { '@type': 'NameElement', name: 'n', nodeType: 'DOCUMENT', nodeId: node.nodeId },
  parent: null,
  targetNodeSequenceNumber: '',
  targetNodeVersionId: null,
  targetVersion: null,
  onVersion: null,
  postId: null,
  onLatestVersion: true,
  onNextPublished: false,
  onLatestPublished: false,
  sentBy: { ...sampleUser(), passwordHash: undefined },
  user: { ...sampleUser(), passwordHash: undefined },
  status: 'OPEN',
  completionDate: null,
  targetAncestorIds: node.ancestorIds,
} as unknown as StoredAction;
const grant = {
  nodeId: 'N1',
  principalId: 'U1',
  role: 'READER',
  grantedBy: 'U0',
  grantedAt: '2026-11-22T10:00:00.000Z',
} as const;
const claim = { principalId: 'U1', key: 'k', fingerprint: 'f', committed: true };

/** Every call a repository makes, by name, and which of them write more than one item. */
const CALLS: [string, () => Promise<unknown>][] = [
  ['findNode', () => findNode('N1')],
  ['findNodes', () => findNodes(['N1', 'N2'])],
  ['readCounts', () => readCounts(['N1'])],
  [
    'commitNodeWrites (one item)',
    () => commitNodeWrites([{ kind: 'replace', node, expectedNodeVersionId: 'OLD' }]),
  ],
  ['commitNodeWrites (a transaction)', () => commitNodeWrites([{ kind: 'create', node }])],
  ['leaseForDelete', () => leaseForDelete(node, '2026-11-22T10:01:00.000Z')],
  ['createUser', () => createUser(sampleUser())],
  ['updateUser', () => updateUser(sampleUser().principalId, { status: 'DISABLED' })],
  ['listUsersPage', () => listUsersPage(10)],
  ['putGrant', () => putGrant(grant, { nodeType: 'DOCUMENT_SET', ancestorIds: [] })],
  ['deleteGrant', () => deleteGrant('N1', 'U1')],
  ['createSession', () => createSession(sampleSession())],
  ['findSessionWithUser', () => findSessionWithUser('S1', 'U1')],
  ['touchSession', () => touchSession('S1', '2026-11-22T10:00:00.000Z')],
  ['deleteSession', () => deleteSession('S1')],
  ['storedSessionsPage', () => storedSessionsPage(10)],
  ['createActions', () => createActions([action])],
  ['saveAction', () => saveAction(action, 'V0')],
  ['listActionsOf', () => listActionsOf('U1')],
  ['saveSettings', () => saveSettings({ sessionTimeoutMinutes: 30, webTokenExpiresInDays: 1 }, 'U1')],
  ['markBootstrapped', () => markBootstrapped({ adminPrincipalId: 'U1', defaultEnvironmentId: 'E1' })],
  ['findFailureWindows', () => findFailureWindows([{ kind: 'user', username: 'ann' }])],
  ['countFailure', () => countFailure({ kind: 'user', username: 'ann' }, 1000, 900)],
  ['clearFailures', () => clearFailures({ kind: 'user', username: 'ann' })],
  ['saveAnswer', () => saveAnswer(claim, { statusCode: 200, headers: {}, body: '{}' })],
];

const COMMANDS = [
  GetCommand,
  BatchGetCommand,
  QueryCommand,
  PutCommand,
  UpdateCommand,
  DeleteCommand,
  TransactWriteCommand,
];

describe.each([
  ['throttled', () => new ThrottlingException({ message: 'slow down', $metadata: {} })],
  [
    'over its throughput',
    () => new ProvisionedThroughputExceededException({ message: 'slow down', $metadata: {} }),
  ],
  ['failing inside DynamoDB', () => new InternalServerError({ message: 'oops', $metadata: {} })],
])('when DynamoDB is %s', (_, fault) => {
  it.each(CALLS)('%s answers a retryable 503', async (_name, call) => {
    // Every command the repositories send rejects (the mock is keyed by command class).
    for (const command of COMMANDS) ddb.on(command as typeof GetCommand).rejects(fault());
    await expect(call()).rejects.toBeInstanceOf(ServiceUnavailableError);
  });
});

describe('when a write meets a concurrent transaction', () => {
  it.each(CALLS)('%s is tried again and goes through', async (_name, call) => {
    const cancelled = new TransactionCanceledException({
      message: 'cancelled',
      $metadata: {},
      CancellationReasons: [{ Code: 'TransactionConflict' }],
    });
    const conflict = new TransactionConflictException({ message: 'ongoing', $metadata: {} });
    ddb.on(TransactWriteCommand).rejectsOnce(cancelled).resolves({});
    ddb.on(PutCommand).rejectsOnce(conflict).resolves({});
    ddb.on(UpdateCommand).rejectsOnce(conflict).resolves({});
    ddb.on(DeleteCommand).rejectsOnce(conflict).resolves({});
    ddb.on(GetCommand).resolves({ Item: undefined });
    ddb.on(BatchGetCommand).resolves({ Responses: {} });
    ddb.on(QueryCommand).resolves({ Items: [] });
    const result = await call().catch((e: unknown) => e);
    // leaseForDelete reads the node back: absent here, so it reports the node changed, which is no fault.
    if (_name !== 'leaseForDelete') expect(result).not.toBeInstanceOf(Error);
  });

  it('sends every write of several items as one transaction, so a fault leaves none of it', async () => {
    ddb.on(TransactWriteCommand).resolves({});
    for (const call of [
      () => createUser(sampleUser()),
      () => putGrant(grant, { nodeType: 'DOCUMENT_SET', ancestorIds: [] }),
      () => deleteGrant('N1', 'U1'),
      () => createActions([action, { ...action, actionId: 'A2' }]),
      () => commitNodeWrites([{ kind: 'create', node }]),
    ]) {
      ddb.resetHistory();
      await call();
      expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(1);
      expect(ddb.commandCalls(PutCommand)).toHaveLength(0);
      expect(ddb.commandCalls(UpdateCommand)).toHaveLength(0);
      expect(ddb.commandCalls(DeleteCommand)).toHaveLength(0);
    }
  });
});
