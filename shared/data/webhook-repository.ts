/**
 * Webhook endpoints and their deliveries. Endpoints sit in one partition (a dispatch reads them all in one
 * Query); an endpoint's item is written when an administrator changes it and when a delivery parks or
 * recovers, never per delivery. Each delivery is its own item in its endpoint's partition, in the order of
 * the changes: an attempt claims it with a conditional update first, so a queue message delivered twice
 * (SQS is at least once) sends it once.
 */
import { DeleteCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoDb } from '#shared/clients/dynamodb.ts';
import { config } from '#shared/config/index.ts';
import type { DeliveryAttempt, DeliveryState, Webhook } from '#shared/domain/webhooks.ts';
import { failedConditions, updatedIfHeld, writtenIfHeld } from './conditional-writes.ts';
import { deliveries, type StoredDelivery, webhooks } from './entities/webhooks.ts';
import { queryPage } from './keyed-pages.ts';
import { DELIVERY_PREFIX, deliveryKey, WEBHOOKS_PARTITION, webhookKey } from './keys.ts';
import { getItem, queryAll } from './reads.ts';
import { TABLE_SCHEMA } from './table-schema.ts';

const table = () => config().tableName;

export async function findWebhook(webhookId: string): Promise<Webhook | null> {
  const item = await getItem(webhookKey(webhookId));
  return item ? webhooks.fromItem(item) : null;
}

/** Every endpoint, strongly consistent (one just registered gets the next change). */
export async function allWebhooks(): Promise<Webhook[]> {
  const items = await queryAll(TABLE_SCHEMA.partitionKey, WEBHOOKS_PARTITION, { consistent: true });
  return items.map(webhooks.fromItem);
}

export async function createWebhook(webhook: Webhook): Promise<void> {
  await dynamoDb().send(
    new PutCommand({
      TableName: table(),
      Item: webhooks.toItem(webhook),
      ConditionExpression: 'attribute_not_exists(PK)',
    }),
  );
}

/**
 * Writes an administrator's change to an endpoint if nobody changed it since `expectedModifiedAt` (false
 * otherwise). Its count of failures in a row is left as it is: deliveries keep it (recordAttempt,
 * in the attempt's transaction) without touching modifiedAt, and a whole-item write would put back a stale count.
 */
export function replaceWebhook(webhook: Webhook, expectedModifiedAt: string): Promise<boolean> {
  const {
    [TABLE_SCHEMA.partitionKey]: _partition,
    [TABLE_SCHEMA.sortKey]: _sort,
    consecutiveFailures: _kept,
    ...fields
  } = webhooks.toItem(webhook);
  const names = Object.keys(fields);
  return writtenIfHeld(
    dynamoDb().send(
      new UpdateCommand({
        TableName: table(),
        Key: webhookKey(webhook.webhookId),
        UpdateExpression: `SET ${names.map((_, i) => `#f${i} = :f${i}`).join(', ')}`,
        ConditionExpression: 'modifiedAt = :expected',
        ExpressionAttributeNames: Object.fromEntries(names.map((name, i) => [`#f${i}`, name])),
        ExpressionAttributeValues: {
          ...Object.fromEntries(names.map((name, i) => [`:f${i}`, fields[name]])),
          ':expected': expectedModifiedAt,
        },
      }),
    ),
  );
}

export function deleteWebhook(webhookId: string): Promise<boolean> {
  return writtenIfHeld(
    dynamoDb().send(
      new DeleteCommand({
        TableName: table(),
        Key: webhookKey(webhookId),
        ConditionExpression: 'attribute_exists(PK)',
      }),
    ),
  );
}

/**
 * What an attempt tells its endpoint: one more failure in a row (its delivery parked), or the end of them
 * (delivered after failures).
 */
export type EndpointNote = 'failed' | 'recovered';

function endpointNoteUpdate(webhookId: string, note: EndpointNote) {
  const base = { TableName: table(), Key: webhookKey(webhookId) };
  return note === 'failed'
    ? {
        ...base,
        UpdateExpression: 'ADD consecutiveFailures :one',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: { ':one': 1 },
      }
    : {
        ...base,
        UpdateExpression: 'SET consecutiveFailures = :zero',
        ConditionExpression: 'attribute_exists(PK) AND consecutiveFailures > :zero',
        ExpressionAttributeValues: { ':zero': 0 },
      };
}

/** Records a new delivery; false if it is there already (a change dispatched again). */
export function createDelivery(delivery: StoredDelivery): Promise<boolean> {
  return writtenIfHeld(
    dynamoDb().send(
      new PutCommand({
        TableName: table(),
        Item: deliveries.toItem(delivery),
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    ),
  );
}

export async function findDelivery(webhookId: string, deliveryId: string): Promise<StoredDelivery | null> {
  const item = await getItem(deliveryKey(webhookId, deliveryId));
  return item ? deliveries.fromItem(item) : null;
}

const OPEN_STATES = { ':pending': 'pending', ':retrying': 'retrying' };

/**
 * Takes a delivery for its attempt number `attempt` until `untilMs`: only while it is still open, still at
 * that attempt, and nobody else holds it. Null when it cannot be taken (done, parked, moved on, or held).
 */
export async function claimDelivery(
  webhookId: string,
  deliveryId: string,
  attempt: number,
  nowMs: number,
  untilMs: number,
): Promise<StoredDelivery | null> {
  return updatedOrNull(
    new UpdateCommand({
      TableName: table(),
      Key: deliveryKey(webhookId, deliveryId),
      UpdateExpression: 'SET claimedUntil = :until',
      ConditionExpression:
        'attempts = :attempt AND #state IN (:pending, :retrying) AND ' +
        '(attribute_not_exists(claimedUntil) OR claimedUntil < :now)',
      ExpressionAttributeNames: { '#state': 'state' },
      ExpressionAttributeValues: { ':until': untilMs, ':attempt': attempt, ':now': nowMs, ...OPEN_STATES },
      ReturnValues: 'ALL_NEW',
    }),
  );
}

/** The delivery an update made, or null when its condition did not hold. */
const updatedOrNull = (update: UpdateCommand): Promise<StoredDelivery | null> =>
  updatedIfHeld(dynamoDb().send(update), (item) => deliveries.fromItem(item));

/** What an attempt left: the delivery's next state, and its log with the attempt added. */
export interface AttemptOutcome {
  state: DeliveryState;
  log: DeliveryAttempt[];
  nextAttemptAt: string | null;
  at: string;
}

/**
 * Ends a claimed attempt (attempt number `attempt`): the delivery moves on to `attempt + 1`; false when
 * another attempt ended it first. What it tells the endpoint (`note`) is written in the same transaction,
 * so a fault between the two cannot record the attempt and lose the count; an endpoint deleted meanwhile
 * (or whose count another delivery reset) leaves the attempt recorded alone.
 */
export async function recordAttempt(
  webhookId: string,
  deliveryId: string,
  attempt: number,
  outcome: AttemptOutcome,
  note?: EndpointNote,
): Promise<boolean> {
  const done = outcome.state === 'delivered' ? 'deliveredAt' : outcome.state === 'parked' ? 'parkedAt' : null;
  const update = {
    TableName: table(),
    Key: deliveryKey(webhookId, deliveryId),
    UpdateExpression:
      'SET attempts = :next, #state = :state, #log = :log, nextAttemptAt = :nextAt, claimedUntil = :zero' +
      (done ? `, ${done} = :at` : ''),
    ConditionExpression: 'attempts = :attempt',
    ExpressionAttributeNames: { '#state': 'state', '#log': 'log' },
    ExpressionAttributeValues: {
      ':next': attempt + 1,
      ':attempt': attempt,
      ':state': outcome.state,
      ':log': outcome.log,
      ':nextAt': outcome.nextAttemptAt,
      ':zero': 0,
      ...(done ? { ':at': outcome.at } : {}),
    },
  };
  if (!note) return writtenIfHeld(dynamoDb().send(new UpdateCommand(update)));
  try {
    await dynamoDb().send(
      new TransactWriteCommand({
        TransactItems: [{ Update: update }, { Update: endpointNoteUpdate(webhookId, note) }],
      }),
    );
    return true;
  } catch (error) {
    const failed = failedConditions(error);
    if (failed.length === 0) throw error;
    if (failed.includes(0)) return false;
    return recordAttempt(webhookId, deliveryId, attempt, outcome);
  }
}

/**
 * Sends a delivered or parked delivery again: open again at attempt 0 (its log kept), and kept another
 * retention period. Null when it is still on its way (pending or retrying) or gone.
 */
export async function reopenDelivery(
  webhookId: string,
  deliveryId: string,
  expiresAtEpoch: number,
): Promise<StoredDelivery | null> {
  return updatedOrNull(
    new UpdateCommand({
      TableName: table(),
      Key: deliveryKey(webhookId, deliveryId),
      UpdateExpression:
        'SET #state = :pending, attempts = :zero, nextAttemptAt = :none, deliveredAt = :none, ' +
        'parkedAt = :none, claimedUntil = :zero, expiresAtEpoch = :expires',
      ConditionExpression: '#state IN (:delivered, :parked)',
      ExpressionAttributeNames: { '#state': 'state' },
      ExpressionAttributeValues: {
        ':pending': 'pending',
        ':delivered': 'delivered',
        ':parked': 'parked',
        ':zero': 0,
        ':none': null,
        ':expires': expiresAtEpoch,
      },
      ReturnValues: 'ALL_NEW',
    }),
  );
}

/** Puts a reopened delivery back as it was (its replay could not be queued), unless it moved on since. */
export function putBackDelivery(previous: StoredDelivery): Promise<boolean> {
  return writtenIfHeld(
    dynamoDb().send(
      new PutCommand({
        TableName: table(),
        Item: deliveries.toItem(previous),
        ConditionExpression: '#state = :pending AND attempts = :zero',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':pending': 'pending', ':zero': 0 },
      }),
    ),
  );
}

/**
 * A page of an endpoint's deliveries, newest first, optionally of one state: at most `limit` read (a
 * state filter may leave the page short; `next` goes on), whatever the log's length.
 */
export async function deliveriesOf(
  webhookId: string,
  options: { state?: DeliveryState; after?: string; limit: number },
): Promise<{ deliveries: StoredDelivery[]; next?: string }> {
  const page = await queryPage(
    {
      partition: deliveryKey(webhookId, '').PK,
      sortKeyPrefix: DELIVERY_PREFIX,
      descending: true,
      ...(options.state
        ? {
            filter: {
              expression: '#state = :state',
              names: { '#state': 'state' },
              values: { ':state': options.state },
            },
          }
        : {}),
    },
    options.limit,
    options.after ? { after: options.after } : {},
  );
  return {
    deliveries: page.items.map((item) => deliveries.fromItem(item)),
    ...(page.next ? { next: page.next } : {}),
  };
}
