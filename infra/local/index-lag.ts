/**
 * Index reads that lag the table, as DynamoDB's global secondary indexes do (they are updated
 * asynchronously, usually within a second): an index query answers each item as it stood `lagMs` ago.
 * An item written since then shows its earlier image there, and one created since then is not there yet;
 * so code that reads an index right after a write and needs to see that write is found by the tests.
 *
 * Where this is coarser than DynamoDB: an item deleted within the lag is gone from index reads at once
 * (DynamoDB still lists it for a moment), and an item whose index keys changed within the lag is left out
 * rather than shown at its old place; the page's Limit and filter were applied to the current images.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { KeySchemas } from './key-schemas.ts';

type Item = Record<string, AttributeValue>;
/** What a Query or Scan says of where it reads and what it answers. */
interface QueryShape {
  TableName: string;
  IndexName?: string;
  ProjectionExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
}

/** An item's image before a write, and when that write landed. */
interface Superseded {
  until: number;
  image: Item | undefined;
}

export class IndexLag {
  private readonly history = new Map<string, Superseded[]>();

  constructor(
    private lagMs: number,
    private readonly keys: KeySchemas,
  ) {}

  get enabled(): boolean {
    return this.lagMs > 0;
  }

  /** Changes the lag from now on (0 turns it off; writes made while it was off are not held back). */
  set lag(ms: number) {
    this.lagMs = ms;
    if (ms <= 0) this.history.clear();
  }

  /** Items just written, with their images from before the write (undefined: the item did not exist). */
  written(ids: readonly string[], before: readonly (Item | undefined)[]): void {
    if (!this.enabled) return;
    const now = Date.now();
    ids.forEach((id, i) => {
      const kept = (this.history.get(id) ?? []).filter((entry) => entry.until > now - this.lagMs);
      this.history.set(id, [...kept, { until: now, image: before[i] }]);
    });
  }

  /** What `item` looked like `lagMs` ago: null if it did not exist yet; itself if unchanged since. */
  private asOfLag(id: string, now: number): Item | null | 'current' {
    const seen = (this.history.get(id) ?? []).find((entry) => entry.until > now - this.lagMs);
    if (!seen) {
      this.history.delete(id);
      return 'current';
    }
    return seen.image ?? null;
  }

  /**
   * A query or scan of an index as it is sent on: one that names the attributes it wants may leave out the
   * table's key (which item an answer is) or the index's keys (where it stood), which finding an item's
   * earlier image needs; those are added to what it asks for, and `narrow` takes them off the answer.
   */
  async widened<T extends QueryShape>(input: T): Promise<{ sent: T; narrow: (items: Item[]) => Item[] }> {
    const unchanged = { sent: input, narrow: (items: Item[]) => items };
    if (!this.enabled || !input.IndexName || input.ProjectionExpression === undefined) return unchanged;
    const shape = await this.keys.indexShape(input.TableName, input.IndexName);
    if (!shape) return unchanged;
    const asked = projectedNames(input.ProjectionExpression, input.ExpressionAttributeNames);
    const added = shape.identity.filter((name) => !asked.has(name));
    if (added.length === 0) return unchanged;
    const placeholders = Object.fromEntries(added.map((name, i) => [`#lagKey${i}`, name]));
    const sent = {
      ...input,
      ProjectionExpression: [input.ProjectionExpression, ...Object.keys(placeholders)].join(', '),
      ExpressionAttributeNames: { ...input.ExpressionAttributeNames, ...placeholders },
    };
    const narrow = (items: Item[]) =>
      items.map((item) => Object.fromEntries(Object.entries(item).filter(([name]) => !added.includes(name))));
    return { sent, narrow };
  }

  /**
   * An index query's items as the index would hold them now. `selective`: the query named the attributes
   * it wants (ProjectionExpression), so an earlier image is cut to the attributes the answer has.
   */
  async lagged(table: string, indexName: string, items: Item[], selective: boolean): Promise<Item[]> {
    const shape = await this.keys.indexShape(table, indexName);
    if (!shape) return items;
    const now = Date.now();
    const answered: Item[] = [];
    for (const item of items) {
      const id = this.keys.itemId(table, await this.keys.keyOf(table, item));
      const earlier = this.asOfLag(id, now);
      if (earlier === 'current') answered.push(item);
      else if (earlier && sameIndexKeys(shape.keyAttributes, earlier, item)) {
        const kept = (name: string) => shape.projects(name) && (!selective || name in item);
        answered.push(Object.fromEntries(Object.entries(earlier).filter(([name]) => kept(name))));
      }
    }
    return answered;
  }
}

/** The top-level attributes a ProjectionExpression names (`a.b[0]` names `a`; `#n` as its names map says). */
function projectedNames(expression: string, names: Record<string, string> = {}): Set<string> {
  return new Set(
    expression.split(',').map((path) => {
      const top = path.trim().split(/[.[]/)[0] ?? '';
      return top.startsWith('#') ? (names[top] ?? top) : top;
    }),
  );
}

const sameIndexKeys = (names: string[], a: Item, b: Item) =>
  names.every((name) => a[name] !== undefined && JSON.stringify(a[name]) === JSON.stringify(b[name]));
