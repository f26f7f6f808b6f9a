/**
 * Webhook endpoints as administrators manage them. A system administrator registers endpoints for the
 * whole library or any environment or folder; an environment admin, for the environments and folders
 * they administer (the `grant` permission there), and sees and manages only those. An endpoint keeps
 * its scope for life; whoever may administer the scope manages it, whoever registered it.
 */
import { randomBytes } from 'node:crypto';
import { resolveAll } from '#shared/clients/webhook-http.ts';
import { config } from '#shared/config/index.ts';
import { findNode, findNodes } from '#shared/data/node-repository.ts';
import {
  allWebhooks,
  createWebhook,
  deleteWebhook,
  deliveriesOf,
  findWebhook,
  replaceWebhook,
} from '#shared/data/webhook-repository.ts';
import {
  BadRequestError,
  bodyError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
  ValidationError,
} from '#shared/domain/errors.ts';
import type { ListPage } from '#shared/domain/list-element.ts';
import { type Node, newId } from '#shared/domain/node.ts';
import { NODE_TYPE_NAMES } from '#shared/domain/node-types.ts';
import { can, GRANTABLE_NODE_TYPES } from '#shared/domain/permissions.ts';
import type { Caller } from '#shared/domain/user.ts';
import { targetRefusal, urlRefusal } from '#shared/domain/webhook-targets.ts';
import {
  type DeliveryState,
  type DeliveryView,
  deliveryView,
  SECRET_OVERLAP_HOURS,
  type Webhook,
  type WebhookChanges,
  type WebhookPayload,
  type WebhookView,
  webhookView,
} from '#shared/domain/webhooks.ts';
import { type CursorRequest, cursorPage } from './paging.ts';

/** A new signing secret, as Standard Webhooks writes them: `whsec_` and 32 random bytes in base64. */
export const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/** A bad field of the body, as a 400. */
const invalidField = (path: string, rule: string, message: string) =>
  new ValidationError([bodyError(path, rule, message)]);

const webhookNotFound = (webhookId: string) =>
  new NotFoundError('WEBHOOK_NOT_FOUND', `No webhook ${webhookId}`);

/** The endpoint's URL, checked: https, no credentials, and public addresses only (webhook-targets.ts). */
async function checkedUrl(url: string): Promise<string> {
  const rules = { allowLoopback: config().webhookAllowLoopback };
  const parsed = urlRefusal(url, rules);
  if ('refusal' in parsed) throw invalidField('$.url', 'webhook_url', parsed.refusal);
  let addresses: string[];
  try {
    addresses = await resolveAll(parsed.url.hostname);
  } catch {
    throw invalidField('$.url', 'webhook_target', `${parsed.url.hostname} does not resolve to an address`);
  }
  const refusal = targetRefusal(parsed.url, addresses, rules);
  if (refusal) throw invalidField('$.url', 'webhook_target', refusal);
  // Kept as sent, as a document's link is, not as the parser cleans it (dot segments resolved, numeric
  // hosts as dotted quads): each attempt parses it again, to the address checked here.
  return url;
}

function checkedNodeTypes(nodeTypes: readonly string[] | null | undefined): string[] | null {
  if (!nodeTypes) return null;
  const unknown = nodeTypes.findIndex((type) => !NODE_TYPE_NAMES.includes(type));
  if (unknown >= 0) {
    throw invalidField(`$.nodeTypes[${unknown}]`, 'enum', `${nodeTypes[unknown]} is not a nodeType`);
  }
  return [...new Set(nodeTypes)];
}

/** The scope node, if the caller may administer webhooks there. */
async function administeredScope(caller: Caller, scopeNodeId: string | null): Promise<Node | null> {
  if (scopeNodeId === null) {
    if (!caller.systemAdmin) {
      throw new ForbiddenError(
        'A webhook for the whole library needs a system administrator; give scopeNodeId, an environment or folder you administer',
      );
    }
    return null;
  }
  const node = await findNode(scopeNodeId);
  if (!node || node.deleted || !can(caller, node, 'read')) {
    throw new NotFoundError('NODE_NOT_FOUND', `No object with nodeId ${scopeNodeId}`, [
      bodyError('$.scopeNodeId', 'exists', 'no such environment or folder'),
    ]);
  }
  if (!(GRANTABLE_NODE_TYPES as readonly string[]).includes(node.nodeType)) {
    throw new BadRequestError(
      'NOT_A_SCOPE',
      `A webhook's scope is an environment or folder, not a ${node.nodeType}`,
      [bodyError('$.scopeNodeId', 'scope', `must be a node of type ${GRANTABLE_NODE_TYPES.join(', ')}`)],
    );
  }
  if (!can(caller, node, 'grant')) throw new ForbiddenError('Webhooks need the environment admin role here');
  return node;
}

/** Whether the caller may manage an endpoint (its scope is one they administer). */
function manages(caller: Caller, webhook: Webhook, scopes: Map<string, Node>): boolean {
  if (caller.systemAdmin) return true;
  const scope = webhook.scopeNodeId ? scopes.get(webhook.scopeNodeId) : undefined;
  return scope !== undefined && !scope.deleted && can(caller, scope, 'grant');
}

/** An endpoint the caller manages; 404 for any other (never telling it exists). */
export async function managedWebhook(caller: Caller, webhookId: string): Promise<Webhook> {
  const webhook = await findWebhook(webhookId);
  if (!webhook) throw webhookNotFound(webhookId);
  const scope = webhook.scopeNodeId ? await findNode(webhook.scopeNodeId) : null;
  const scopes = new Map(scope ? [[scope.nodeId, scope]] : []);
  if (!manages(caller, webhook, scopes)) throw webhookNotFound(webhookId);
  return webhook;
}

export async function registerWebhook(caller: Caller, payload: WebhookPayload): Promise<WebhookView> {
  const scope = await administeredScope(caller, payload.scopeNodeId ?? null);
  const url = await checkedUrl(payload.url);
  const now = new Date().toISOString();
  const webhook: Webhook = {
    webhookId: newId(),
    url,
    description: payload.description ?? null,
    events: [...new Set(payload.events ?? ['*'])],
    nodeTypes: checkedNodeTypes(payload.nodeTypes),
    scopeNodeId: scope?.nodeId ?? null,
    enabled: payload.enabled ?? true,
    secret: newSecret(),
    previousSecret: null,
    previousSecretUntil: null,
    createdBy: caller.principal.principalId,
    createdAt: now,
    modifiedAt: now,
    consecutiveFailures: 0,
  };
  await createWebhook(webhook);
  return webhookView(webhook, true);
}

export async function listWebhooks(caller: Caller): Promise<{ results: WebhookView[] }> {
  const all = await allWebhooks();
  const scopeIds = [...new Set(all.flatMap((w) => (w.scopeNodeId ? [w.scopeNodeId] : [])))];
  const scopes = new Map(
    (caller.systemAdmin || scopeIds.length === 0 ? [] : await findNodes(scopeIds)).map((n) => [n.nodeId, n]),
  );
  const results = all
    .filter((webhook) => manages(caller, webhook, scopes))
    .sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0))
    .map((webhook) => webhookView(webhook));
  return { results };
}

export async function getWebhook(caller: Caller, webhookId: string): Promise<WebhookView> {
  return webhookView(await managedWebhook(caller, webhookId));
}

/** Writes a changed endpoint, or answers 409 when someone changed it meanwhile. */
async function replaced(webhook: Webhook, previous: Webhook): Promise<void> {
  if (!(await replaceWebhook(webhook, previous.modifiedAt))) {
    throw new ConflictError('WRITE_CONFLICT', 'The webhook was changed meanwhile; read it and try again');
  }
}

export async function updateWebhook(
  caller: Caller,
  webhookId: string,
  changes: WebhookChanges,
): Promise<WebhookView> {
  const webhook = await managedWebhook(caller, webhookId);
  const updated: Webhook = {
    ...webhook,
    ...(changes.url !== undefined ? { url: await checkedUrl(changes.url) } : {}),
    ...(changes.description !== undefined ? { description: changes.description } : {}),
    ...(changes.events !== undefined ? { events: [...new Set(changes.events)] } : {}),
    ...(changes.nodeTypes !== undefined ? { nodeTypes: checkedNodeTypes(changes.nodeTypes) } : {}),
    ...(changes.enabled !== undefined ? { enabled: changes.enabled } : {}),
    modifiedAt: new Date().toISOString(),
  };
  await replaced(updated, webhook);
  return webhookView(updated);
}

export async function removeWebhook(caller: Caller, webhookId: string): Promise<void> {
  await managedWebhook(caller, webhookId);
  if (!(await deleteWebhook(webhookId))) throw webhookNotFound(webhookId);
}

/**
 * A new secret for an endpoint, shown once. The previous one goes on signing beside it (a second
 * signature in `webhook-signature`) for SECRET_OVERLAP_HOURS, so receivers can switch without a gap.
 */
export async function rotateSecret(caller: Caller, webhookId: string): Promise<WebhookView> {
  const webhook = await managedWebhook(caller, webhookId);
  const now = Date.now();
  const rotated: Webhook = {
    ...webhook,
    secret: newSecret(),
    previousSecret: webhook.secret,
    previousSecretUntil: new Date(now + SECRET_OVERLAP_HOURS * 3_600_000).toISOString(),
    modifiedAt: new Date(now).toISOString(),
  };
  await replaced(rotated, webhook);
  return webhookView(rotated, true);
}

/** A page of an endpoint's delivery log, newest first (`state` narrows it). */
export async function deliveriesPage(
  caller: Caller,
  webhookId: string,
  query: { state?: DeliveryState } & CursorRequest,
): Promise<ListPage<DeliveryView>> {
  await managedWebhook(caller, webhookId);
  const { state, ...paging } = query;
  return cursorPage(
    `deliveries ${webhookId} ${state ?? 'all'}`,
    'deliveryId',
    paging,
    async (limit, after) => {
      const page = await deliveriesOf(webhookId, {
        ...(state ? { state } : {}),
        limit,
        ...(after ? { after } : {}),
      });
      return { results: page.deliveries.map(deliveryView), ...(page.next ? { next: page.next } : {}) };
    },
    'DESC',
  );
}
