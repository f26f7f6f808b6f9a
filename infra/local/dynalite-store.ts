/**
 * The storage under dynalite in the embedded DynamoDB, in place of its LevelDB. dynalite keeps a table's
 * items, index entries, tags and description as keys and JSON values in sub-databases ("item-<table>",
 * "index-global~<table>~<index>", ...), and its actions read and write them through a small interface
 * (get, put, del, lock, range streams). This store answers that interface from sorted maps in memory and
 * keeps them on disk in a journal, one line per change, so the data folder survives restarts.
 *
 * Why not LevelDB: dynalite 4 reads every range from LevelDB one promise per row, decodes the table's
 * description from LevelDB on every call, and writes each of a node's dozen index entries as its own
 * native call; the store was most of an embedded request's time. Here a read is a map lookup and a
 * range is a walk of a B+ tree.
 *
 * The journal holds tables, items and tags; index entries are derived data and are rebuilt from the
 * items when the store opens (with dynalite's own getIndexActions, so they are what dynalite writes).
 * Lines are appended as changes happen and written out by `flush()` (the gateway flushes before it
 * answers a call), so an acknowledged write is in the file, as in LevelDB without sync: it survives the
 * process, not the machine. The changes of one transaction (`atomically`) go out as one group, between
 * `g<TAB><count>` and `e<TAB><count>`, in one write: a group torn by a crash is dropped whole when the store opens,
 * as a transaction DynamoDB never committed, and so is a torn last line; a journal that has grown well
 * past the data it holds is rewritten then.
 */

import { AsyncLocalStorage } from 'node:async_hooks';
import {
  closeSync,
  existsSync,
  fsyncSync,
  ftruncateSync,
  openSync,
  readFileSync,
  renameSync,
  writeSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { Readable } from 'node:stream';

const require = createRequire(import.meta.url);

/** What the store uses of sorted-btree's B+ tree. */
interface SortedMap<K, V> {
  readonly size: number;
  get(key: K): V | undefined;
  set(key: K, value: V): boolean;
  delete(key: K): boolean;
  keys(): IterableIterator<K>;
  /** From `lowest` (inclusive) up. */
  entries(lowest?: K): IterableIterator<[K, V]>;
  /** From `highest` (inclusive) down. */
  entriesReversed(highest?: K): IterableIterator<[K, V]>;
}
// A CommonJS module whose class is its `default` export (an ESM import would hand over the module object).
const BTree = (require('sorted-btree') as { default: new <K, V>() => SortedMap<K, V> }).default;
const dynaliteDb = require('dynalite/db') as {
  getIndexActions(
    indexes: unknown[],
    existing: unknown,
    item: unknown,
    table: unknown,
  ): { puts: { index: string; key: string; item: unknown }[] };
};
const Lock = (require('lock') as { Lock: () => LockFn }).Lock;

type LockFn = (key: string, locked: (release: (cb: Callback) => Callback) => void) => void;
type Callback = (error: Error | null, value?: unknown) => void;

/** The range options dynalite passes to its streams (LevelDB's). */
export interface RangeOptions {
  gt?: string;
  gte?: string;
  lt?: string;
  lte?: string;
  reverse?: boolean;
  /** At most this many entries; -1 or absent: all. */
  limit?: number;
}

/** A table description as dynalite keeps it (the parts the store reads). */
export interface TableDescription {
  TableName: string;
  TableStatus: string;
  KeySchema: { AttributeName: string }[];
  AttributeDefinitions: { AttributeName: string; AttributeType: string }[];
  GlobalSecondaryIndexes?: { IndexName: string }[];
  LocalSecondaryIndexes?: { IndexName: string }[];
}

const TABLE_DB = 'table';
const isDerived = (name: string) => name.startsWith('index-');
/** Journal lines are tab-separated: op, sub-database, key, value's JSON (which never holds a raw tab or newline). */
const SAFE_FIELD = /^[^\t\n]*$/;

/** The sizes dynalite's rules give an entry (kept with it: see `entrySizes`). */
export interface EntrySizes {
  /** dynalite's itemSize(value): what capacity is billed on. */
  size: number;
  /** dynalite's itemSize(value, true, true, rangeKey): what counts towards a page's 1 MB. */
  pageSize: number;
}

type Value = Record<string, unknown>;

/**
 * Values are kept as their JSON text, and every read decodes a fresh copy (as LevelDB's JSON encoding
 * did). Text, because a library is large and lives in this process's heap: one string per value is one
 * object for the garbage collector to mark, where a decoded item is dozens (with 50,000 objects decoded
 * values made every full collection take half a second). The journal gets the same text.
 */
export class SubDb {
  readonly lock: LockFn = Lock();
  readonly entries: SortedMap<string, string> = new BTree<string, string>();
  /**
   * Entries' sizes, kept until the entry changes: a page by number counts hundreds of index entries it
   * never returns, and their sizes are all it needs of them; a batch get answers stored items as they are
   * kept (dynalite-store-reads.ts), and their sizes are all it bills on.
   */
  private readonly entrySizes = new Map<string, EntrySizes>();

  constructor(
    readonly name: string,
    private readonly changed: (op: 'p' | 'd', sub: string, key: string, text?: string) => void,
  ) {}

  get(key: string, cb: Callback): void {
    process.nextTick(cb, null, this.value(key));
  }

  /** The value a key holds, decoded (a copy of its own). */
  value(key: string): Value | undefined {
    const text = this.entries.get(key);
    return text === undefined ? undefined : (JSON.parse(text) as Value);
  }

  put(key: string, value: Value, cb: Callback): void {
    this.set(key, value);
    process.nextTick(cb, null);
  }

  del(key: string, cb: Callback): void {
    this.remove(key);
    process.nextTick(cb, null);
  }

  batch(operations: { type: 'put' | 'del'; key: string; value?: Value }[], cb: Callback): void {
    for (const op of operations) {
      if (op.type === 'put') this.set(op.key, op.value as Value);
      else this.remove(op.key);
    }
    process.nextTick(cb, null);
  }

  set(key: string, value: Value): void {
    // An index entry's absent projected attributes are undefined: JSON leaves them out, as LevelDB did.
    this.setText(key, JSON.stringify(value));
  }

  /** Sets a key's JSON text (how the journal and the rebuilt indexes load it, too). */
  setText(key: string, text: string): void {
    this.entries.set(key, text);
    this.entrySizes.delete(key);
    this.changed('p', this.name, key, text);
  }

  remove(key: string): void {
    this.entrySizes.delete(key);
    if (this.entries.delete(key)) this.changed('d', this.name, key);
  }

  /** An entry's sizes if known (sized before, unchanged since). */
  knownSizes(key: string): EntrySizes | undefined {
    return this.entrySizes.get(key);
  }

  /** Keeps an entry's sizes until it changes. */
  keepSizes(key: string, sizes: EntrySizes): void {
    this.entrySizes.set(key, sizes);
  }

  /** The keys and JSON texts in a range, in order (reversed if asked), up to its limit. */
  *range(options: RangeOptions): Generator<[key: string, text: string]> {
    const { gt, gte, lt, lte, reverse } = options;
    let left = options.limit === undefined || options.limit < 0 ? Number.POSITIVE_INFINITY : options.limit;
    if (left === 0) return;
    const above = (key: string) => (gt !== undefined ? key > gt : gte === undefined || key >= gte);
    const below = (key: string) => (lt !== undefined ? key < lt : lte === undefined || key <= lte);
    if (!reverse) {
      const start = gt ?? gte;
      for (const entry of this.entries.entries(start)) {
        if (!above(entry[0])) continue;
        if (!below(entry[0])) return;
        yield entry;
        if (--left === 0) return;
      }
    } else {
      const start = lt ?? lte;
      for (const entry of this.entries.entriesReversed(start)) {
        if (!below(entry[0])) continue;
        if (!above(entry[0])) return;
        yield entry;
        if (--left === 0) return;
      }
    }
  }

  createValueStream(options: RangeOptions = {}): Readable {
    return streamOf(this.range(options), ([, text]) => JSON.parse(text));
  }

  createKeyStream(options: RangeOptions = {}): Readable {
    return streamOf(this.range(options), ([key]) => key);
  }

  createReadStream(options: RangeOptions = {}): Readable {
    return this.createValueStream(options);
  }
}

/** An object stream of a range, read in one go when first pulled (the range is in memory). */
function streamOf(entries: Iterable<[string, string]>, pick: (entry: [string, string]) => unknown): Readable {
  return new Readable({
    objectMode: true,
    read() {
      for (const entry of entries) this.push(pick(entry));
      this.push(null);
    },
  });
}

/** Appends journal lines and writes them out on flush, one write per flush. */
class Journal {
  private fd: number;
  private pending: string[] = [];
  /** Lines in the file, and the live entries they describe (to tell when a rewrite pays). */
  lines = 0;

  constructor(private readonly path: string) {
    this.fd = openSync(path, 'a');
  }

  append(line: string): void {
    this.pending.push(line);
    this.lines++;
  }

  /** Lines that stand or fall together, between a line that counts them and one that closes them. */
  appendGroup(lines: string[]): void {
    this.pending.push(`g\t${lines.length}\n`, ...lines, `e\t${lines.length}\n`);
    this.lines += lines.length + 2;
  }

  flush(): void {
    if (this.pending.length === 0) return;
    const text = this.pending.join('');
    this.pending = [];
    writeSync(this.fd, text);
  }

  /** Replaces the file with these lines (written aside, synced, then renamed over it). */
  rewrite(lines: Iterable<string>): void {
    this.flush();
    const aside = `${this.path}.rewrite`;
    const fd = openSync(aside, 'w');
    let count = 0;
    let chunk: string[] = [];
    for (const line of lines) {
      chunk.push(line);
      count++;
      if (chunk.length >= 4096) {
        writeSync(fd, chunk.join(''));
        chunk = [];
      }
    }
    if (chunk.length > 0) writeSync(fd, chunk.join(''));
    fsyncSync(fd);
    closeSync(fd);
    renameSync(aside, this.path);
    closeSync(this.fd);
    this.fd = openSync(this.path, 'a');
    this.lines = count;
  }

  close(): void {
    this.flush();
    fsyncSync(this.fd);
    closeSync(this.fd);
  }
}

const journalLine = (op: 'p' | 'd', sub: string, key: string, text?: string) => {
  if (!SAFE_FIELD.test(sub) || !SAFE_FIELD.test(key)) {
    throw new Error(`The embedded DynamoDB cannot keep the key ${JSON.stringify(key)} of ${sub}`);
  }
  return op === 'p' ? `p\t${sub}\t${key}\t${text}\n` : `d\t${sub}\t${key}\n`;
};

/**
 * A journal's change lines (read as bytes: a journal may outgrow the longest string), the lines of each
 * group once it is whole; a torn last line, or a group the file ends inside, is cut off the file. A group
 * whose count or close does not match is damage, not a crash: `damaged` says so.
 */
function* readJournal(path: string, damaged: (detail: string) => Error): Generator<string> {
  if (!existsSync(path)) return;
  const bytes = readFileSync(path);
  const lineEnd = bytes.lastIndexOf(0x0a) + 1;
  let start = 0;
  const nextLine = () => {
    const newline = bytes.indexOf(0x0a, start);
    const line = bytes.toString('utf8', start, newline);
    start = newline + 1;
    return line;
  };
  let kept = lineEnd;
  while (start < lineEnd) {
    const groupStart = start;
    const line = nextLine();
    if (!line.startsWith('g\t')) {
      yield line;
      continue;
    }
    const count = line.slice(2);
    if (!/^[1-9]\d*$/.test(count)) throw damaged(`a group at byte ${groupStart} counts "${count}" lines`);
    const group: string[] = [];
    while (group.length < Number(count) && start < lineEnd) group.push(nextLine());
    const close = start < lineEnd ? nextLine() : undefined;
    const notClosed = () => damaged(`the group at byte ${groupStart} is not closed after its ${count} lines`);
    // Only changes belong to a group: meeting another group's line, its count is wrong.
    if (group.some((member) => !/^[pd]\t/.test(member))) throw notClosed();
    if (close === undefined) {
      // The file ends inside the group: a crash mid-write. Nothing of it was answered.
      kept = groupStart;
      break;
    }
    if (close !== `e\t${count}`) throw notClosed();
    yield* group;
  }
  if (kept < bytes.length) {
    const fd = openSync(path, 'r+');
    ftruncateSync(fd, kept);
    closeSync(fd);
  }
}

export interface DynaliteStore {
  /** dynalite's store interface (what its actions call). */
  readonly options: Record<string, unknown>;
  readonly tableDb: SubDb & { awsRegion: string; awsAccountId: string };
  getItemDb(name: string): SubDb;
  getIndexDb(indexType: string, tableName: string, indexName: string): SubDb;
  getTagDb(name: string): SubDb;
  deleteItemDb(name: string, cb: Callback): void;
  deleteIndexDb(indexType: string, tableName: string, indexName: string, cb: Callback): void;
  deleteTagDb(name: string, cb: Callback): void;
  getTable(name: string, checkStatus: boolean | Callback, cb?: Callback): void;
  /** A table's description as the item actions see it, if the table is active (not to be changed). */
  activeTable(name: string): TableDescription | undefined;
  /** Writes the journal lines of the changes made so far. */
  flush(): void;
  /**
   * Runs `apply` (the writes of one transaction, and their roll-back if it fails) with its changes kept
   * apart and written out together when it ends: the journal holds all of them or, after a crash, none.
   */
  atomically<T>(apply: () => Promise<T>): Promise<T>;
  close(): void;
}

export function openDynaliteStore(options: {
  /** The journal file; absent: memory only. */
  journalPath?: string;
  createTableMs?: number;
  deleteTableMs?: number;
  updateTableMs?: number;
}): DynaliteStore {
  const subs = new Map<string, SubDb>();
  /** Table descriptions as decoded, for the item actions (which only read them). */
  const tables = new Map<string, TableDescription>();
  let journal: Journal | undefined;
  /** The journal lines of the transaction a change is made in, if it is made in one. */
  const groups = new AsyncLocalStorage<string[]>();
  let loading = true;
  const changed = (op: 'p' | 'd', sub: string, key: string, value?: string) => {
    if (sub === TABLE_DB) tables.clear();
    if (loading || !journal || isDerived(sub)) return;
    const line = journalLine(op, sub, key, value);
    const group = groups.getStore();
    if (group) group.push(line);
    else journal.append(line);
  };
  const sub = (name: string) => {
    let db = subs.get(name);
    if (!db) {
      db = new SubDb(name, changed);
      subs.set(name, db);
    }
    return db;
  };
  const drop = (name: string, cb: Callback) => {
    const db = subs.get(name);
    if (db) for (const key of [...db.entries.keys()]) db.remove(key);
    subs.delete(name);
    process.nextTick(cb, null);
  };
  const tableDb = Object.assign(sub(TABLE_DB), {
    awsRegion: process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? 'us-east-1',
    awsAccountId: (process.env.AWS_ACCOUNT_ID ?? '0000-0000-0000').replace(/[^\d]/g, ''),
  });

  const notFound = (name: string, checkStatus: boolean) =>
    Object.assign(new Error('NotFoundError'), {
      name: 'NotFoundError',
      statusCode: 400,
      body: {
        __type: 'com.amazonaws.dynamodb.v20120810#ResourceNotFoundException',
        message: checkStatus
          ? 'Requested resource not found'
          : `Requested resource not found: Table: ${name} not found`,
      },
    });

  const store: DynaliteStore = {
    options: {
      createTableMs: options.createTableMs ?? 0,
      deleteTableMs: options.deleteTableMs ?? 0,
      updateTableMs: options.updateTableMs ?? 0,
      maxItemSizeKb: 400,
      maxItemSize: 400 * 1024,
    },
    tableDb,
    getItemDb: (name) => sub(`item-${name}`),
    getIndexDb: (indexType, tableName, indexName) =>
      sub(`index-${indexType.toLowerCase()}~${tableName}~${indexName}`),
    getTagDb: (name) => sub(`tag-${name}`),
    deleteItemDb: (name, cb) => drop(`item-${name}`, cb),
    deleteIndexDb: (indexType, tableName, indexName, cb) =>
      drop(`index-${indexType.toLowerCase()}~${tableName}~${indexName}`, cb),
    deleteTagDb: (name, cb) => drop(`tag-${name}`, cb),
    getTable(name, checkStatus, cb) {
      // dynalite's item actions call getTable(name, cb) and only read the table: they share one decoded
      // copy. Table actions pass checkStatus and may change what they get: they get their own.
      const callback = (typeof checkStatus === 'function' ? checkStatus : cb) as Callback;
      const shared = typeof checkStatus === 'function';
      const check = shared || checkStatus === true;
      let table = shared ? tables.get(name) : undefined;
      if (!table) {
        table = tableDb.value(name) as TableDescription | undefined;
        if (table && shared && table.TableStatus === 'ACTIVE') tables.set(name, table);
      }
      if (!table || (check && (table.TableStatus === 'CREATING' || table.TableStatus === 'DELETING'))) {
        process.nextTick(callback, notFound(name, check));
        return;
      }
      process.nextTick(callback, null, table);
    },
    activeTable(name) {
      let table = tables.get(name);
      if (!table) {
        const stored = tableDb.value(name) as TableDescription | undefined;
        if (stored?.TableStatus !== 'ACTIVE') return undefined;
        table = stored;
        tables.set(name, table);
      }
      return table;
    },
    flush: () => journal?.flush(),
    close: () => journal?.close(),
    async atomically(apply) {
      const group: string[] = [];
      try {
        return await groups.run(group, apply);
      } finally {
        if (journal && group.length > 0) {
          journal.appendGroup(group);
          journal.flush();
        }
      }
    },
  };

  if (options.journalPath) {
    const { journalPath } = options;
    /** A journal this version cannot read: damaged, or written by another program. */
    const unreadable = (detail: string) =>
      new Error(
        `The embedded DynamoDB cannot read its journal ${journalPath} (${detail}): move the data folder ` +
          '(DATA_DIR, .data/ by default) aside and start again',
      );
    let lines = 0;
    for (const line of readJournal(journalPath, unreadable)) {
      lines++;
      const [op, name, key, value] = line.split('\t') as [string, string, string, string | undefined];
      if (op === 'p' && value !== undefined) sub(name).setText(key, value);
      else if (op === 'd' && key !== undefined) sub(name).remove(key);
      else throw unreadable(`change ${lines} is not a line of a journal: ${line.slice(0, 80)}`);
    }
    try {
      rebuildIndexes(store, tableDb);
    } catch (error) {
      throw unreadable(`an entry is not JSON: ${(error as Error).message}`);
    }
    journal = new Journal(options.journalPath);
    journal.lines = lines;
    const live = [...subs.values()].reduce((n, db) => n + (isDerived(db.name) ? 0 : db.entries.size), 0);
    if (journal.lines > 2 * live + 1000) journal.rewrite(liveLines(subs));
  }
  loading = false;
  return store;
}

/** Every live table, item and tag entry, as journal lines (a rewritten journal). */
function* liveLines(subs: Map<string, SubDb>): Generator<string> {
  for (const db of subs.values()) {
    if (isDerived(db.name)) continue;
    for (const [key, text] of db.entries.entries()) yield journalLine('p', db.name, key, text);
  }
}

/** Index entries from the items, as dynalite's updateIndexes writes them for a new item. */
function rebuildIndexes(store: DynaliteStore, tableDb: SubDb): void {
  for (const [, text] of tableDb.entries.entries()) {
    const table = JSON.parse(text) as TableDescription;
    for (const kind of ['Local', 'Global'] as const) {
      const indexes = table[`${kind}SecondaryIndexes`] ?? [];
      if (indexes.length === 0) continue;
      for (const [, text] of store.getItemDb(table.TableName).entries.entries()) {
        const { puts } = dynaliteDb.getIndexActions(indexes, undefined, JSON.parse(text), table);
        for (const put of puts)
          store.getIndexDb(kind, table.TableName, put.index).set(put.key, put.item as Value);
      }
    }
  }
}
