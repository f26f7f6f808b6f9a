/** The key attributes of each table of the embedded DynamoDB, to tell which item a request is about. */
import { type AttributeValue, DescribeTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { validationError } from './dynamodb-errors.ts';

type Item = Record<string, AttributeValue>;

export class KeySchemas {
  private readonly attributes = new Map<string, Promise<string[]>>();

  constructor(private readonly backend: DynamoDBClient) {}

  private keyAttributes(tableName: string): Promise<string[]> {
    let attributes = this.attributes.get(tableName);
    if (!attributes) {
      attributes = this.backend
        .send(new DescribeTableCommand({ TableName: tableName }))
        .then(({ Table }) => (Table?.KeySchema ?? []).map((k) => k.AttributeName as string));
      attributes.catch(() => this.attributes.delete(tableName));
      this.attributes.set(tableName, attributes);
    }
    return attributes;
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
}
