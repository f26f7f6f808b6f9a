/** Webhook events: which endpoints take which changes, and when a failed delivery is tried again. */
import { describe, expect, it } from 'vitest';
import type { StoredChange } from '#shared/data/change-repository.ts';
import {
  ALL_EVENT_TYPES,
  eventTypeOf,
  retryDelaySeconds,
  subscribed,
  type Webhook,
} from '#shared/domain/webhooks.ts';
import { takes } from '#shared/services/webhook-dispatch.ts';

const webhook = (overrides: Partial<Webhook> = {}): Webhook => ({
  webhookId: 'W',
  url: 'https://x.example/',
  description: null,
  events: ['*'],
  nodeTypes: null,
  scopeNodeId: null,
  enabled: true,
  secret: 'whsec_x',
  previousSecret: null,
  previousSecretUntil: null,
  createdBy: 'U',
  createdAt: '2026-01-01T00:00:00.000Z',
  modifiedAt: '2026-01-01T00:00:00.000Z',
  consecutiveFailures: 0,
  ...overrides,
});

const change = (overrides: Partial<StoredChange> = {}): StoredChange => ({
  changeId: 'c1',
  kind: 'UPDATED',
  nodeId: 'N',
  nodeType: 'DOCUMENT',
  nodeVersionId: null,
  version: null,
  nodeStatus: null,
  parentId: 'F',
  deleted: false,
  by: null,
  at: null,
  recordedAt: '2026-01-01T00:00:00.000Z',
  detail: null,
  principalId: null,
  role: null,
  ancestorIds: ['E', 'F'],
  previousAncestorIds: null,
  ...overrides,
});

describe('webhook events', () => {
  it('names every kind of change but the reader-only REMOVED, and filters by type, group or all', () => {
    expect(eventTypeOf('REMOVED')).toBeUndefined();
    expect(eventTypeOf('GRANTED')).toBe('grant.created');
    expect(new Set(ALL_EVENT_TYPES).size).toBe(ALL_EVENT_TYPES.length);
    expect(subscribed(['*'], 'edge.added')).toBe(true);
    expect(subscribed(['node.*'], 'node.purged')).toBe(true);
    expect(subscribed(['node.*'], 'edge.added')).toBe(false);
    expect(subscribed(['node.deleted'], 'node.updated')).toBe(false);
  });

  it('sends an endpoint what lies in its scope, of its node types, while it is enabled', () => {
    expect(takes(webhook(), change(), 'node.updated')).toBe(true);
    expect(takes(webhook({ scopeNodeId: 'F' }), change(), 'node.updated')).toBe(true);
    expect(takes(webhook({ scopeNodeId: 'N' }), change(), 'node.updated')).toBe(true);
    expect(takes(webhook({ scopeNodeId: 'G' }), change(), 'node.updated')).toBe(false);
    expect(takes(webhook({ nodeTypes: ['PROCESS'] }), change(), 'node.updated')).toBe(false);
    expect(takes(webhook({ events: ['grant.*'] }), change(), 'node.updated')).toBe(false);
    expect(takes(webhook({ enabled: false }), change(), 'node.updated')).toBe(false);
  });

  it('sends a scoped endpoint a link only when both ends lie in its scope', () => {
    const link = (target: StoredChange['target']) =>
      change({ kind: 'RELATION_LINKED', detail: 'documentedBy:D', target });
    const scoped = webhook({ scopeNodeId: 'F' });
    expect(takes(scoped, link({ nodeId: 'D', ancestorIds: ['E', 'F'] }), 'relation.linked')).toBe(true);
    expect(takes(scoped, link({ nodeId: 'D', ancestorIds: ['E', 'G'] }), 'relation.linked')).toBe(false);
    expect(takes(webhook(), link({ nodeId: 'D', ancestorIds: ['E2'] }), 'relation.linked')).toBe(true);
    // A user end has no place: the link goes with its source.
    expect(takes(scoped, link(undefined), 'relation.linked')).toBe(true);
    // An end gone before the change was recorded cannot be placed: only a library-wide endpoint takes it.
    expect(takes(scoped, link(null), 'relation.unlinked')).toBe(false);
    expect(takes(webhook(), link(null), 'relation.unlinked')).toBe(true);
  });

  it('retries after 5 s, 30 s, 2 min, 10 min, 30 min, 1 h and 3 h, then gives up', () => {
    const waits = Array.from({ length: 8 }, (_, i) => retryDelaySeconds(i + 1));
    expect(waits).toEqual([5, 30, 120, 600, 1800, 3600, 10_800, undefined]);
    expect(retryDelaySeconds(1, [1, 2])).toBe(1);
    expect(retryDelaySeconds(3, [1, 2])).toBeUndefined();
  });
});
