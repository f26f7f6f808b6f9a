/**
 * TransactWriteItems and TransactGetItems for dynalite, which has neither. A transaction holds its items
 * (item-locks.ts) while it runs: one that needs an item another transaction or a plain write is using is
 * cancelled with TransactionConflict for that item, as in DynamoDB, instead of waiting its turn. Every
 * action is applied with its own condition, and if any condition fails, the actions already applied are
 * rolled back from snapshots taken first. The caller sees what DynamoDB answers: nothing written, and a
 * TransactionCanceledException whose CancellationReasons hold one entry per action (`None` for those
 * that would have succeeded). A ClientRequestToken makes a repeated request idempotent for 10 minutes:
 * answered as a success without writing again when the first one succeeded.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { DynamoDbWireError, validationError, type WireCall } from './dynamodb-errors.ts';
import type { ItemLocks } from './item-locks.ts';
import type { KeySchemas } from './key-schemas.ts';

type Item = Record<string, AttributeValue>;
type Names = Record<string, string> | undefined;
type Values = Item | undefined;

interface ConditionFields {
  TableName: string;
  ConditionExpression?: string;
  ExpressionAttributeNames?: Names;
  ExpressionAttributeValues?: Values;
  ReturnValuesOnConditionCheckFailure?: 'ALL_OLD' | 'NONE';
}

interface TransactWriteAction {
  Put?: ConditionFields & { Item: Item };
  Update?: ConditionFields & { Key: Item; UpdateExpression: string };
  Delete?: ConditionFields & { Key: Item };
  ConditionCheck?: ConditionFields & { Key: Item; ConditionExpression: string };
}

interface TransactGetAction {
  Get?: { TableName: string; Key: Item; ProjectionExpression?: string; ExpressionAttributeNames?: Names };
}

interface CancellationReason {
  Code: string;
  Message?: string;
  Item?: Item;
}

const MAX_ACTIONS = 100;

/** How long DynamoDB remembers a ClientRequestToken. */
const TOKEN_TTL_MS = 10 * 60_000;

const cancelled = (reasons: CancellationReason[]) =>
  new DynamoDbWireError(
    'TransactionCanceledException',
    `Transaction cancelled, please refer cancellation reasons for specific reasons [${reasons.map((r) => r.Code).join(', ')}]`,
    { CancellationReasons: reasons },
  );

/** Cancellation for items in use by others: TransactionConflict for those, None for the rest. */
const conflicted = (count: number, busy: number[]) =>
  cancelled(
    Array.from({ length: count }, (_, i) =>
      busy.includes(i)
        ? { Code: 'TransactionConflict', Message: 'Transaction is ongoing for the item' }
        : { Code: 'None' },
    ),
  );

export class LocalTransactions {
  /** Tokens of transactions that succeeded (and their request), and of those running now. */
  private readonly tokens = new Map<string, { request: string; at: number }>();
  private readonly running = new Set<string>();

  constructor(
    private readonly call: WireCall,
    private readonly keys: KeySchemas,
    private readonly locks: ItemLocks,
    /**
     * Told the items a committed transaction wrote, their images from before it, and those after it
     * that the actions tell (a put's item, nothing after a delete; null: an update, read it).
     */
    private readonly committed: (
      ids: readonly string[],
      before: readonly (Item | undefined)[],
      after: readonly (Item | undefined | null)[],
    ) => void | Promise<void> = () => undefined,
    /**
     * How long a transaction holds its items before it applies them: DynamoDB's own commit takes about
     * 10–25 ms, during which overlapping transactions are cancelled. In process, a commit takes well
     * under a millisecond, so without this contention would be far rarer here than in the cloud.
     */
    private readonly holdMs = 0,
    /**
     * Runs a transaction's writes (and their roll-back) so that they reach the disk together or not at
     * all, as a transaction DynamoDB commits survives a crash whole (the store's journal groups them).
     */
    private readonly atomically: <T>(apply: () => Promise<T>) => Promise<T> = (apply) => apply(),
  ) {}

  /** `holding`, if given, runs once the transaction holds its items and before it applies them (tests). */
  async transactWrite(
    input: {
      TransactItems?: TransactWriteAction[];
      ReturnConsumedCapacity?: string;
      ClientRequestToken?: string;
    },
    holding?: () => Promise<void>,
  ): Promise<Record<string, unknown>> {
    const actions = input.TransactItems ?? [];
    if (actions.length === 0 || actions.length > MAX_ACTIONS) {
      throw validationError(
        `1 validation error detected: Value at 'transactItems' failed to satisfy constraint: Member must have length less than or equal to ${MAX_ACTIONS}`,
      );
    }
    const targets = await Promise.all(actions.map((action) => this.target(action)));
    const ids = targets.map(({ table, key }) => this.keys.itemId(table, key));
    if (new Set(ids).size !== ids.length)
      throw validationError('Transaction request cannot include multiple operations on one item');
    const token = input.ClientRequestToken;
    // What a repeated token is compared with: only a transaction that carries one needs it.
    const request = token ? JSON.stringify(actions) : '';
    if (token) {
      const earlier = this.tokens.get(token);
      if (earlier && Date.now() - earlier.at < TOKEN_TTL_MS) {
        if (earlier.request !== request) {
          throw new DynamoDbWireError(
            'IdempotentParameterMismatchException',
            'The request uses the same client token as a previous, but non-identical request',
          );
        }
        return capacity(input.ReturnConsumedCapacity, targets[0]?.table, 0, 'WriteCapacityUnits');
      }
      if (this.running.has(token)) {
        throw new DynamoDbWireError(
          'TransactionInProgressException',
          'The transaction with the given request token is already in progress',
        );
      }
    }
    const me = Symbol('transaction');
    const busy = this.locks.claim(ids, me);
    if (busy.length > 0) throw conflicted(actions.length, busy);
    if (token) this.running.add(token);
    try {
      await holding?.();
      if (this.holdMs > 0) await new Promise((resolve) => setTimeout(resolve, this.holdMs));
      const { result, snapshots } = await this.atomically(() =>
        this.apply(actions, targets, input.ReturnConsumedCapacity),
      );
      const writes = ids.flatMap((_id, i) => (actions[i]?.ConditionCheck ? [] : [i]));
      // While the items are still held, so what it reads of them is what this transaction wrote.
      await this.committed(
        writes.map((i) => ids[i] as string),
        writes.map((i) => snapshots[i]),
        writes.map((i) => {
          const action = actions[i] as TransactWriteAction;
          return action.Put ? action.Put.Item : action.Delete ? undefined : null;
        }),
      );
      if (token) this.tokens.set(token, { request, at: Date.now() });
      return result;
    } finally {
      if (token) this.running.delete(token);
      this.locks.releaseAll(ids, me);
    }
  }

  /** Applies the actions of a transaction that holds its items: all of them, or none. */
  private async apply(
    actions: TransactWriteAction[],
    targets: Awaited<ReturnType<LocalTransactions['target']>>[],
    consumed: string | undefined,
  ): Promise<{ result: Record<string, unknown>; snapshots: (Item | undefined)[] }> {
    const snapshots = await Promise.all(
      targets.map(async ({ table, key }) => {
        const { Item } = await this.call('GetItem', { TableName: table, Key: key, ConsistentRead: true });
        return Item as Item | undefined;
      }),
    );

    // The transaction holds all its items, so its actions do not interfere: apply them all at once.
    const outcomes = await Promise.allSettled(
      actions.map((action, i) => this.applyOne(action, snapshots[i], (targets[i] as { key: Item }).key)),
    );
    const applied = outcomes.flatMap((outcome, i) => (outcome.status === 'fulfilled' ? [i] : []));
    const failure = outcomes.find(
      (o): o is PromiseRejectedResult => o.status === 'rejected' && !conditionFailed(o.reason),
    );
    if (failure) {
      await this.rollBack(applied, targets, snapshots);
      throw failure.reason;
    }
    let units = 0;
    const reasons: CancellationReason[] = outcomes.map((outcome, i) => {
      if (outcome.status === 'fulfilled') {
        units += outcome.value;
        return { Code: 'None' };
      }
      const snapshot = snapshots[i];
      const { fields } = targets[i] as { fields: ConditionFields };
      return {
        Code: 'ConditionalCheckFailed',
        Message: 'The conditional request failed',
        ...(fields.ReturnValuesOnConditionCheckFailure === 'ALL_OLD' && snapshot ? { Item: snapshot } : {}),
      };
    });

    if (reasons.some((r) => r.Code !== 'None')) {
      await this.rollBack(applied, targets, snapshots);
      throw cancelled(reasons);
    }
    return { result: capacity(consumed, targets[0]?.table, units, 'WriteCapacityUnits'), snapshots };
  }

  async transactGet(input: { TransactItems?: TransactGetAction[]; ReturnConsumedCapacity?: string }) {
    const actions = input.TransactItems ?? [];
    if (actions.length === 0 || actions.length > MAX_ACTIONS) {
      throw validationError(`Member must have length less than or equal to ${MAX_ACTIONS}`);
    }
    for (const action of actions)
      if (!action.Get) throw validationError('Each TransactItems element must hold a Get');
    const ids = await Promise.all(
      actions.map(async ({ Get }) => {
        const table = Get?.TableName as string;
        return this.keys.itemId(table, await this.keys.keyOf(table, Get?.Key as Item));
      }),
    );
    const busy = this.locks.heldByTransactions(ids);
    if (busy.length > 0) throw conflicted(actions.length, busy);
    let units = 0;
    const responses = [];
    for (const action of actions) {
      if (!action.Get) continue;
      const { ConsumedCapacity, Item } = (await this.call('GetItem', {
        ...action.Get,
        ConsistentRead: true,
        ReturnConsumedCapacity: 'TOTAL',
      })) as { ConsumedCapacity?: { CapacityUnits?: number }; Item?: Item };
      units += 2 * (ConsumedCapacity?.CapacityUnits ?? 0);
      responses.push(Item ? { Item } : {});
    }
    return {
      Responses: responses,
      ...capacity(input.ReturnConsumedCapacity, actions[0]?.Get?.TableName, units, 'ReadCapacityUnits'),
    };
  }

  private async target(action: TransactWriteAction) {
    const kinds = (['Put', 'Update', 'Delete', 'ConditionCheck'] as const).filter((k) => action[k]);
    if (kinds.length !== 1) throw validationError('Each TransactItems element must hold exactly one action');
    const fields = action[kinds[0] as keyof TransactWriteAction] as ConditionFields & {
      Key?: Item;
      Item?: Item;
    };
    const key = await this.keys.keyOf(fields.TableName, (fields.Key ?? fields.Item) as Item);
    return { table: fields.TableName, key, fields };
  }

  /** Applies one action with its condition; returns the write units a transaction bills for it (twice). */
  private async applyOne(
    action: TransactWriteAction,
    snapshot: Item | undefined,
    key: Item,
  ): Promise<number> {
    const condition = (f: ConditionFields) => ({
      TableName: f.TableName,
      ConditionExpression: f.ConditionExpression,
      ExpressionAttributeNames: f.ExpressionAttributeNames,
      ExpressionAttributeValues: f.ExpressionAttributeValues,
      ReturnConsumedCapacity: 'TOTAL' as const,
    });
    let result: { ConsumedCapacity?: { CapacityUnits?: number } };
    if (action.Put) {
      result = await this.call('PutItem', { ...condition(action.Put), Item: action.Put.Item });
    } else if (action.Update) {
      result = await this.call('UpdateItem', {
        ...condition(action.Update),
        Key: action.Update.Key,
        UpdateExpression: action.Update.UpdateExpression,
      });
    } else if (action.Delete) {
      result = await this.call('DeleteItem', { ...condition(action.Delete), Key: action.Delete.Key });
    } else {
      // A condition check writes nothing: evaluate it by re-putting the item as it is (or a bare key,
      // removed again at once when the item did not exist).
      const check = action.ConditionCheck as NonNullable<TransactWriteAction['ConditionCheck']>;
      result = await this.call('PutItem', { ...condition(check), Item: snapshot ?? key });
      if (!snapshot) await this.call('DeleteItem', { TableName: check.TableName, Key: key });
    }
    return 2 * (result.ConsumedCapacity?.CapacityUnits ?? 1);
  }

  private async rollBack(
    applied: number[],
    targets: { table: string; key: Item }[],
    snapshots: (Item | undefined)[],
  ): Promise<void> {
    for (const i of [...applied].reverse()) {
      const { table, key } = targets[i] as { table: string; key: Item };
      const snapshot = snapshots[i];
      if (snapshot) await this.call('PutItem', { TableName: table, Item: snapshot });
      else await this.call('DeleteItem', { TableName: table, Key: key });
    }
  }
}

const conditionFailed = (error: unknown) =>
  error instanceof DynamoDbWireError && error.type === 'ConditionalCheckFailedException';

function capacity(mode: string | undefined, table: string | undefined, units: number, kind: string) {
  if (mode !== 'TOTAL' && mode !== 'INDEXES') return {};
  return { ConsumedCapacity: [{ TableName: table, CapacityUnits: units, [kind]: units }] };
}
