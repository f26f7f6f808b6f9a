/**
 * The key attributes of each table of the embedded DynamoDB (to tell which item a request is about) and
 * of its indexes (what an index holds of an item).
 */
import type { AttributeValue, TableDescription } from '@aws-sdk/client-dynamodb';
import { validationError, type WireCall } from './dynamodb-errors.ts';

type Item = Record<string, AttributeValue>;

/** What an index keeps of an item: its own key attributes, and which attributes it projects. */
export interface IndexShape {
  keyAttributes: string[];
  /** The index's key attributes and the table's: what tells an item and its place in the index. */
  identity: string[];
  projects(attribute: string): boolean;
}

export class KeySchemas {
  private readonly tables = new Map<string, Promise<TableDescription>>();

  constructor(private readonly call: WireCall) {}

  private describe(tableName: string): Promise<TableDescription> {
    let table = this.tables.get(tableName);
    if (!table) {
      table = this.call('DescribeTable', { TableName: tableName }).then(
        ({ Table }) => (Table ?? {}) as TableDescription,
      );
      table.catch(() => this.tables.delete(tableName));
      this.tables.set(tableName, table);
    }
    return table;
  }

  private async keyAttributes(tableName: string): Promise<string[]> {
    return ((await this.describe(tableName)).KeySchema ?? []).map((k) => k.AttributeName as string);
  }

  /** The shape of a global or local secondary index of a table; null if it has no such index. */
  async indexShape(tableName: string, indexName: string): Promise<IndexShape | null> {
    const table = await this.describe(tableName);
    const index = [...(table.GlobalSecondaryIndexes ?? []), ...(table.LocalSecondaryIndexes ?? [])].find(
      (candidate) => candidate.IndexName === indexName,
    );
    if (!index) return null;
    const keyAttributes = (index.KeySchema ?? []).map((k) => k.AttributeName as string);
    const always = new Set([...keyAttributes, ...(await this.keyAttributes(tableName))]);
    const { ProjectionType, NonKeyAttributes = [] } = index.Projection ?? {};
    return {
      keyAttributes,
      identity: [...always],
      projects: (attribute) =>
        ProjectionType === 'ALL' || always.has(attribute) || NonKeyAttributes.includes(attribute),
    };
  }

  /** The key of an item (or of a key), in the table's key order. */
  async keyOf(tableName: string, itemOrKey: Item): Promise<Item> {
    const key: Item = {};
    for (const name of await this.keyAttributes(tableName)) {
      const value = itemOrKey[name];
      if (!value)
        throw validationError('One or more parameter values were invalid: Missing the key in the item');
      key[name] = value;
    }
    return key;
  }

  /** One string per item: table and key. */
  itemId(tableName: string, key: Item): string {
    return `${tableName}|${JSON.stringify(key)}`;
  }

  /** The table and key an itemId names. */
  parseItemId(id: string): { table: string; key: Item } {
    const bar = id.indexOf('|');
    return { table: id.slice(0, bar), key: JSON.parse(id.slice(bar + 1)) as Item };
  }
}
