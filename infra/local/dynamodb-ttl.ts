/**
 * Time to live for dynalite: UpdateTimeToLive / DescribeTimeToLive are answered here (settings kept
 * in a JSON file beside the data), and a sweeper deletes expired items as DynamoDB would: items whose
 * TTL attribute is a Number of epoch seconds in the past (but not more than five years back).
 * Like DynamoDB's, the sweep is late by design: code must check expiry itself.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { DynamoDbWireError, validationError, type WireCall } from './dynamodb-errors.ts';
import type { ItemLocks } from './item-locks.ts';
import type { KeySchemas } from './key-schemas.ts';

const FIVE_YEARS_SECONDS = 5 * 365 * 24 * 3600;

export class LocalTimeToLive {
  private settings: Record<string, string>;

  constructor(
    private readonly call: WireCall,
    private readonly settingsFile: string,
    private readonly keys: KeySchemas,
    private readonly locks: ItemLocks,
  ) {
    // Table name → TTL attribute, with no prototype: a table name is never looked up on Object's.
    this.settings = Object.create(null);
    try {
      Object.assign(this.settings, JSON.parse(readFileSync(settingsFile, 'utf8')));
    } catch {
      // No settings yet.
    }
  }

  private async requireTable(tableName: string | undefined) {
    if (!tableName) throw validationError('TableName is required');
    try {
      await this.call('DescribeTable', { TableName: tableName });
    } catch {
      throw new DynamoDbWireError(
        'ResourceNotFoundException',
        `Requested resource not found: Table: ${tableName} not found`,
      );
    }
    return tableName;
  }

  async update(input: {
    TableName?: string;
    TimeToLiveSpecification?: { Enabled?: boolean; AttributeName?: string };
  }) {
    const table = await this.requireTable(input.TableName);
    const spec = input.TimeToLiveSpecification;
    if (!spec?.AttributeName || typeof spec.Enabled !== 'boolean') {
      throw validationError('TimeToLiveSpecification needs Enabled and AttributeName');
    }
    const current = this.settings[table];
    if (spec.Enabled && current) throw validationError('TimeToLive is already enabled');
    if (!spec.Enabled && current !== spec.AttributeName)
      throw validationError('TimeToLive is already disabled');
    if (spec.Enabled) this.settings[table] = spec.AttributeName;
    else delete this.settings[table];
    writeFileSync(this.settingsFile, JSON.stringify(this.settings, null, 2));
    return { TimeToLiveSpecification: spec };
  }

  async describe(input: { TableName?: string }) {
    const table = await this.requireTable(input.TableName);
    const attribute = this.settings[table];
    return {
      TimeToLiveDescription: attribute
        ? { TimeToLiveStatus: 'ENABLED', AttributeName: attribute }
        : { TimeToLiveStatus: 'DISABLED' },
    };
  }

  /** Deletes every expired item now; returns how many went. */
  async sweep(nowSeconds = Math.floor(Date.now() / 1000)): Promise<number> {
    let deleted = 0;
    for (const [table, attribute] of Object.entries(this.settings)) {
      const keyNames = await this.keyNames(table);
      if (!keyNames) continue;
      let startKey: unknown;
      do {
        const page = (await this.call('Scan', {
          TableName: table,
          FilterExpression: '#ttl BETWEEN :oldest AND :now',
          ExpressionAttributeNames: { '#ttl': attribute },
          ExpressionAttributeValues: {
            ':oldest': { N: String(nowSeconds - FIVE_YEARS_SECONDS) },
            ':now': { N: String(nowSeconds - 1) },
          },
          ...(startKey ? { ExclusiveStartKey: startKey } : {}),
        })) as { Items?: Record<string, AttributeValue>[]; LastEvaluatedKey?: unknown };
        startKey = page.LastEvaluatedKey;
        for (const item of page.Items ?? []) {
          const key = Object.fromEntries(keyNames.map((k) => [k, item[k] as AttributeValue]));
          deleted += (await this.deleteIfStillExpired(
            table,
            key,
            attribute,
            item[attribute] as AttributeValue,
          ))
            ? 1
            : 0;
        }
      } while (startKey);
    }
    return deleted;
  }

  private async keyNames(table: string): Promise<string[] | undefined> {
    try {
      const { Table } = (await this.call('DescribeTable', { TableName: table })) as {
        Table?: { KeySchema?: { AttributeName: string }[] };
      };
      return (Table?.KeySchema ?? []).map((k) => k.AttributeName);
    } catch {
      return undefined;
    }
  }

  private async deleteIfStillExpired(
    table: string,
    key: Record<string, AttributeValue>,
    attribute: string,
    seen: AttributeValue,
  ) {
    // An item a transaction holds is left for the next sweep (DynamoDB's TTL deletes late, too).
    const ids = [this.keys.itemId(table, key)];
    if (!this.locks.beginWrites(ids)) return false;
    try {
      // Only if nobody extended the item since the scan saw it.
      await this.call('DeleteItem', {
        TableName: table,
        Key: key,
        ConditionExpression: '#ttl = :seen',
        ExpressionAttributeNames: { '#ttl': attribute },
        ExpressionAttributeValues: { ':seen': seen },
      });
      return true;
    } catch (error) {
      if (error instanceof DynamoDbWireError && error.type === 'ConditionalCheckFailedException')
        return false;
      throw error;
    } finally {
      this.locks.endWrites(ids);
    }
  }
}
