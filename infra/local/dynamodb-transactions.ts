/**
 * TransactWriteItems and TransactGetItems for dynalite, which has neither. Runs under the gateway's
 * write lock, so no other write interleaves: every action is applied with its own condition, and if
 * any condition fails, the actions already applied are rolled back from snapshots taken first. The
 * caller sees what DynamoDB answers: nothing written, and a TransactionCanceledException whose
 * CancellationReasons hold one entry per action (`None` for those that would have succeeded).
 */
import {
  type AttributeValue,
  ConditionalCheckFailedException,
  DeleteItemCommand,
  DescribeTableCommand,
  type DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import { DynamoDbWireError, validationError } from './dynamodb-errors.ts';

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

export class LocalTransactions {
  private readonly keySchemas = new Map<string, string[]>();

  constructor(private readonly backend: DynamoDBClient) {}

  private async keyAttributes(tableName: string): Promise<string[]> {
    let attributes = this.keySchemas.get(tableName);
    if (!attributes) {
      const { Table } = await this.backend.send(new DescribeTableCommand({ TableName: tableName }));
      attributes = (Table?.KeySchema ?? []).map((k) => k.AttributeName as string);
      this.keySchemas.set(tableName, attributes);
    }
    return attributes;
  }

  private async keyOf(tableName: string, itemOrKey: Item): Promise<Item> {
    const key: Item = {};
    for (const name of await this.keyAttributes(tableName)) {
      const value = itemOrKey[name];
      if (!value)
        throw validationError('One or more parameter values were invalid: Missing the key in the item');
      key[name] = value;
    }
    return key;
  }

  async transactWrite(input: {
    TransactItems?: TransactWriteAction[];
    ReturnConsumedCapacity?: string;
  }): Promise<Record<string, unknown>> {
    const actions = input.TransactItems ?? [];
    if (actions.length === 0 || actions.length > MAX_ACTIONS) {
      throw validationError(
        `1 validation error detected: Value at 'transactItems' failed to satisfy constraint: Member must have length less than or equal to ${MAX_ACTIONS}`,
      );
    }
    const targets = await Promise.all(actions.map((action) => this.target(action)));
    const seen = new Set<string>();
    for (const { table, key } of targets) {
      const id = `${table}|${JSON.stringify(key)}`;
      if (seen.has(id))
        throw validationError('Transaction request cannot include multiple operations on one item');
      seen.add(id);
    }

    const snapshots = await Promise.all(
      targets.map(async ({ table, key }) => {
        const { Item } = await this.backend.send(
          new GetItemCommand({ TableName: table, Key: key, ConsistentRead: true }),
        );
        return Item;
      }),
    );

    const reasons: CancellationReason[] = [];
    const applied: number[] = [];
    let units = 0;
    for (const [i, action] of actions.entries()) {
      const { key, fields } = targets[i] as Awaited<ReturnType<LocalTransactions['target']>>;
      try {
        units += await this.apply(action, snapshots[i], key);
        applied.push(i);
        reasons.push({ Code: 'None' });
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) {
          await this.rollBack(applied, targets, snapshots);
          if ((error as Error).name === 'ValidationException')
            throw validationError((error as Error).message);
          throw error;
        }
        const snapshot = snapshots[i];
        reasons.push({
          Code: 'ConditionalCheckFailed',
          Message: 'The conditional request failed',
          ...(fields.ReturnValuesOnConditionCheckFailure === 'ALL_OLD' && snapshot ? { Item: snapshot } : {}),
        });
      }
    }

    if (reasons.some((r) => r.Code !== 'None')) {
      await this.rollBack(applied, targets, snapshots);
      throw new DynamoDbWireError(
        'TransactionCanceledException',
        `Transaction cancelled, please refer cancellation reasons for specific reasons [${reasons.map((r) => r.Code).join(', ')}]`,
        { CancellationReasons: reasons },
      );
    }
    return capacity(input.ReturnConsumedCapacity, targets[0]?.table, units, 'WriteCapacityUnits');
  }

  async transactGet(input: { TransactItems?: TransactGetAction[]; ReturnConsumedCapacity?: string }) {
    const actions = input.TransactItems ?? [];
    if (actions.length === 0 || actions.length > MAX_ACTIONS) {
      throw validationError(`Member must have length less than or equal to ${MAX_ACTIONS}`);
    }
    let units = 0;
    const responses = [];
    for (const action of actions) {
      if (!action.Get) throw validationError('Each TransactItems element must hold a Get');
      const { ConsumedCapacity, Item } = await this.backend.send(
        new GetItemCommand({ ...action.Get, ConsistentRead: true, ReturnConsumedCapacity: 'TOTAL' }),
      );
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
    const key = await this.keyOf(fields.TableName, (fields.Key ?? fields.Item) as Item);
    return { table: fields.TableName, key, fields };
  }

  /** Applies one action with its condition; returns the write units a transaction bills for it (twice). */
  private async apply(action: TransactWriteAction, snapshot: Item | undefined, key: Item): Promise<number> {
    const condition = (f: ConditionFields) => ({
      TableName: f.TableName,
      ConditionExpression: f.ConditionExpression,
      ExpressionAttributeNames: f.ExpressionAttributeNames,
      ExpressionAttributeValues: f.ExpressionAttributeValues,
      ReturnConsumedCapacity: 'TOTAL' as const,
    });
    let result: { ConsumedCapacity?: { CapacityUnits?: number } };
    if (action.Put) {
      result = await this.backend.send(
        new PutItemCommand({ ...condition(action.Put), Item: action.Put.Item }),
      );
    } else if (action.Update) {
      result = await this.backend.send(
        new UpdateItemCommand({
          ...condition(action.Update),
          Key: action.Update.Key,
          UpdateExpression: action.Update.UpdateExpression,
        }),
      );
    } else if (action.Delete) {
      result = await this.backend.send(
        new DeleteItemCommand({ ...condition(action.Delete), Key: action.Delete.Key }),
      );
    } else {
      // A condition check writes nothing: evaluate it by re-putting the item as it is (or a bare key,
      // removed again at once when the item did not exist).
      const check = action.ConditionCheck as NonNullable<TransactWriteAction['ConditionCheck']>;
      result = await this.backend.send(new PutItemCommand({ ...condition(check), Item: snapshot ?? key }));
      if (!snapshot) await this.backend.send(new DeleteItemCommand({ TableName: check.TableName, Key: key }));
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
      if (snapshot) await this.backend.send(new PutItemCommand({ TableName: table, Item: snapshot }));
      else await this.backend.send(new DeleteItemCommand({ TableName: table, Key: key }));
    }
  }
}

function capacity(mode: string | undefined, table: string | undefined, units: number, kind: string) {
  if (mode !== 'TOTAL' && mode !== 'INDEXES') return {};
  return { ConsumedCapacity: [{ TableName: table, CapacityUnits: units, [kind]: units }] };
}
