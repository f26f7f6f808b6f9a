/**
 * dynalite's request handling without its HTTP server: the same type checks, validations (expressions
 * parsed and checked) and actions its server runs for a request, called directly by the embedded
 * DynamoDB's gateway on the store beside it (dynalite-store.ts). What an HTTP request to dynalite
 * answered, this answers: a status and the JSON body, errors included.
 *
 * Range reads (Query, Scan) take their entries straight from the store's sorted maps instead of through
 * dynalite's object streams, which cost more per entry than everything else a query does; the rules
 * applied to the entries (Limit, the 1 MB page, filters after the limit, LastEvaluatedKey, projections,
 * capacity) are dynalite's queryTable, line for line.
 */
import { createRequire } from 'node:module';
import { keepParses } from './dynalite-expression-cache.ts';
import type { DynaliteStore, RangeOptions, SubDb } from './dynalite-store.ts';

const require = createRequire(import.meta.url);

type Data = Record<string, unknown>;
type Callback = (error: (Error & { statusCode?: number; body?: unknown }) | null, result?: Data) => void;
type Action = (store: DynaliteStore, data: Data, cb: Callback) => void;

interface Validation {
  types: Record<string, unknown>;
  custom?: (data: Data, store: DynaliteStore) => string | undefined;
}

const validations = require('dynalite/validations') as {
  checkTypes(data: Data, types: Record<string, unknown>): Data;
  checkValidations(data: Data, types: Record<string, unknown>, custom: unknown, store: DynaliteStore): void;
  toLowerFirst(name: string): string;
};

interface Item {
  [attribute: string]: unknown;
}
interface TableLike {
  KeySchema: { AttributeName: string }[];
}
const db = require('dynalite/db') as {
  queryTable: (...args: unknown[]) => void;
  itemSize(item: Item, compress?: boolean, addMetaSize?: boolean, rangeKey?: string): number;
  matchesExprFilter(item: Item, expression: unknown): boolean;
  matchesFilter(item: Item, filter: unknown, conditionalOperator: unknown): boolean;
  mapPaths(paths: unknown, item: Item): Item;
};

/** The operations dynalite implements (its server's list). */
const OPERATIONS = [
  'BatchGetItem',
  'BatchWriteItem',
  'CreateTable',
  'DeleteItem',
  'DeleteTable',
  'DescribeTable',
  'DescribeTimeToLive',
  'GetItem',
  'ListTables',
  'PutItem',
  'Query',
  'Scan',
  'TagResource',
  'UntagResource',
  'ListTagsOfResource',
  'UpdateItem',
  'UpdateTable',
] as const;

const handlers = new Map(
  OPERATIONS.map((operation) => {
    const name = validations.toLowerFirst(operation);
    return [
      operation as string,
      {
        action: require(`dynalite/actions/${name}`) as Action,
        validation: require(`dynalite/validations/${name}`) as Validation,
      },
    ];
  }),
);

export interface DynaliteAnswer {
  status: number;
  body: Data;
}

const MAX_PAGE_BYTES = 1024 * 1024;

/**
 * dynalite's queryTable (db/index.js) for the store's sorted maps: the entries come as a synchronous
 * range instead of a stream. Only a local index read that fetches whole items from the table goes the
 * old way (the embedded table has no local indexes).
 */
function queryTable(
  store: DynaliteStore,
  table: TableLike & { TableName: string },
  data: Data & { Limit?: number; IndexName?: string },
  opts: RangeOptions,
  isLocal: boolean,
  _fetchFromItemDb: boolean,
  startKeyNames: string[],
  cb: Callback,
): void {
  const source: SubDb = data.IndexName
    ? store.getIndexDb(isLocal ? 'local' : 'global', table.TableName, data.IndexName)
    : store.getItemDb(data.TableName as string);
  const calculateCapacity =
    data.ReturnConsumedCapacity === 'TOTAL' || data.ReturnConsumedCapacity === 'INDEXES';
  const rangeKey = table.KeySchema[1]?.AttributeName;
  const limit = data.Limit;
  let tableCapacity = 0;
  let indexCapacity = 0;
  let size = 0;
  let count = 0;
  let items: Item[] = [];
  // A count without a filter needs only the entries' sizes: known ones are not decoded again.
  const decodeAll = data.Select !== 'COUNT' || Boolean(data._filter ?? data.QueryFilter ?? data.ScanFilter);
  let lastText: string | undefined;
  for (const [key, text] of source.range(opts)) {
    if ((limit !== undefined && count >= limit) || size >= MAX_PAGE_BYTES) break;
    let sizes = source.knownSizes(key);
    const value = decodeAll || !sizes ? (JSON.parse(text) as Item) : undefined;
    if (!sizes) {
      sizes = {
        size: db.itemSize(value as Item),
        pageSize: db.itemSize(value as Item, true, true, rangeKey),
      };
      source.keepSizes(key, sizes);
    }
    if (calculateCapacity) {
      if (data.IndexName) indexCapacity += sizes.size;
      else tableCapacity += sizes.size;
    }
    count++;
    size += sizes.pageSize;
    lastText = text;
    if (value) items.push(value);
  }
  const lastItem = decodeAll ? items[items.length - 1] : lastText && (JSON.parse(lastText) as Item);
  const queryFilter = data.QueryFilter ?? data.ScanFilter;
  const filter = data._filter as { expression: unknown } | undefined;
  if (filter) items = items.filter((item) => db.matchesExprFilter(item, filter.expression));
  else if (queryFilter)
    items = items.filter((item) => db.matchesFilter(item, queryFilter, data.ConditionalOperator));

  const result: Data = { ScannedCount: count };
  if ((limit !== undefined && count >= limit) || size >= MAX_PAGE_BYTES) {
    if (limit) items.splice(limit);
    if (lastItem) {
      result.LastEvaluatedKey = Object.fromEntries(startKeyNames.map((name) => [name, lastItem[name]]));
    }
  }
  const projection = data._projection as { paths: unknown } | undefined;
  const paths = projection ? projection.paths : data.AttributesToGet;
  if (paths) items = items.map((item) => db.mapPaths(paths, item));
  result.Count = decodeAll ? items.length : count;
  if (data.Select !== 'COUNT') result.Items = items;
  if (calculateCapacity) {
    const factor = data.ConsistentRead ? 1 : 0.5;
    const tableUnits = Math.ceil(tableCapacity / 1024 / 4) * factor;
    const indexUnits = Math.ceil(indexCapacity / 1024 / 4) * factor;
    const consumed: Data = { CapacityUnits: tableUnits + indexUnits, TableName: data.TableName };
    if (data.ReturnConsumedCapacity === 'INDEXES') {
      consumed.Table = { CapacityUnits: tableUnits };
      if (data.IndexName) {
        consumed[isLocal ? 'LocalSecondaryIndexes' : 'GlobalSecondaryIndexes'] = {
          [data.IndexName]: { CapacityUnits: indexUnits },
        };
      }
    }
    result.ConsumedCapacity = consumed;
  }
  cb(null, result);
}

const originalQueryTable = db.queryTable;
// dynalite's query and scan actions call db.queryTable through the module: one replacement serves both.
db.queryTable = (...args: unknown[]) => {
  const [store, , , , , fetchFromItemDb] = args;
  if (fetchFromItemDb || typeof (store as Partial<DynaliteStore>).flush !== 'function') {
    originalQueryTable(...args);
    return;
  }
  (queryTable as (...a: unknown[]) => void)(...args);
};

// Every call's expressions are parsed by these (through the module, so the kept parses serve them all).
for (const parser of ['conditionParser', 'updateParser', 'projectionParser']) {
  keepParses(require(`dynalite/db/${parser}`));
}

/** Runs one DynamoDB operation (its wire JSON) on the store, as dynalite's server would. */
export function callDynalite(store: DynaliteStore, operation: string, input: Data): Promise<DynaliteAnswer> {
  const handler = handlers.get(operation);
  if (!handler) {
    return Promise.resolve({
      status: 400,
      body: { __type: 'com.amazon.coral.service#UnknownOperationException' },
    });
  }
  return new Promise((resolve, reject) => {
    let data: Data;
    try {
      // checkTypes deletes what it does not know from the object it is given: give it its own.
      data = validations.checkTypes({ ...input }, handler.validation.types);
      validations.checkValidations(data, handler.validation.types, handler.validation.custom, store);
    } catch (error) {
      const failure = error as { statusCode?: number; body?: Data };
      if (failure.statusCode) resolve({ status: failure.statusCode, body: failure.body ?? {} });
      else reject(error);
      return;
    }
    handler.action(store, data, (error, result) => {
      store.flush();
      if (error?.statusCode) resolve({ status: error.statusCode, body: (error.body ?? {}) as Data });
      else if (error) reject(error);
      else resolve({ status: 200, body: result ?? {} });
    });
  });
}
