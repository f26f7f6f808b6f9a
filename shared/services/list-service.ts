/**
 * The lists: GET /list (everything the caller may read), GET /list/{nodeId} (a node's children) and the
 * per-type lists of spec §4.7, all with one set of query parameters.
 *
 * Cost (DynamoDB reads per page, whatever the size of the library):
 * - one index query per partition read: a node's children are one partition; the other lists read one
 *   partition per readable environment (per nodeType in it when the list is typed), each stopping after
 *   pageSize + 1 entries, then pageSize objects by key and their parents, each read by a projection of
 *   what a list shows (ListedNode: not the kind's fields; the capacity is the whole item's either way);
 * - totalRecords comes from the counts kept by the write path: one small item per readable root;
 * - a cursor resumes right after the last object, so every page of a walk costs the same;
 * - page n by number (currentPage) first reads the (n - 1) × pageSize entries before it from the index
 *   (small entries, about 40 per read unit, not the objects): deep pages cost more, the cursor does not.
 * - filters on type, status, name, publication and attention are checked on the index entries; a
 *   modifiedSince with a sort key other than modificationDate is checked on the objects, so it reads about
 *   pageSize ÷ (share of objects modified since) objects per page.
 */

import type { NodeCopy } from '#shared/data/keys.ts';
import { listPartition } from '#shared/data/list-indexes.ts';
import {
  type EntryFilter,
  type EntryRange,
  fetchListed,
  type ListEntry,
  type ListPartition,
  listEntries,
  skipEntries,
  skippableByCount,
} from '#shared/data/list-repository.ts';
import { type NodeCounts, readCounts, sumCounts } from '#shared/data/node-counts.ts';
import { findNodeWithCounts, findParentNodes, findParentNodesAsShown } from '#shared/data/node-repository.ts';
import { readRelationCountsOf } from '#shared/data/relation-repository.ts';
import { NotFoundError, ValidationError } from '#shared/domain/errors.ts';
import {
  type AnalyzerElement,
  type MaturityElement,
  maturityElement,
  toAnalyzerElement,
} from '#shared/domain/governance.ts';
import { decodeCursor, encodeCursor, queryFingerprint } from '#shared/domain/list-cursor.ts';
import {
  type ListElement,
  type ListedNode,
  type ListPage,
  toListElement,
} from '#shared/domain/list-element.ts';
import { DEFAULT_PAGE_SIZE, type ListQuery, MAX_OFFSET } from '#shared/domain/list-query.ts';
import type { Node, NodeStatus } from '#shared/domain/node.ts';
import type { Facet } from '#shared/domain/node-types.ts';
import { can } from '#shared/domain/permissions.ts';
import { FACET_ITEM_TYPES, type TypedList } from '#shared/domain/typed-lists.ts';
import type { Caller } from '#shared/domain/user.ts';
import { awaitedLater } from './awaited-later.ts';
import { type ReadableRoots, readableRoots } from './readable-roots.ts';
import { candidatePage, type ListParameters } from './related-lists.ts';
import { responsibilitiesOf, responsibilitiesOfPrincipal, responsibilitiesOn } from './relation-service.ts';

/** Which list a request asks for. */
export type ListTarget =
  | { kind: 'all' }
  | { kind: 'children'; parentId: string }
  | { kind: 'typed'; list: TypedList };

const queryError = (parameter: string, rule: string, message: string) =>
  new ValidationError([{ in: 'query', path: `$.${parameter}`, rule, message }]);

/** Where a page starts: the cursor of a walk (it knows its page), or a page number; not both. */
function pagePosition(query: Pick<ListQuery, 'cursor' | 'currentPage'>, fingerprint: string) {
  if (query.cursor && query.currentPage) {
    throw queryError('currentPage', 'exclusive', 'cannot be combined with cursor: the cursor knows its page');
  }
  const cursor = query.cursor ? decodeCursor(query.cursor, fingerprint) : undefined;
  return { cursor, currentPage: cursor?.page ?? query.currentPage ?? 1 };
}

function parametersOf(target: ListTarget, query: ListQuery): ListParameters {
  let nodeTypes = query.nodeType;
  if (target.kind === 'typed') {
    const allowed = target.list.nodeTypes;
    const outside = nodeTypes?.filter((type) => !allowed.includes(type)) ?? [];
    if (outside.length > 0) {
      throw queryError(
        'nodeType',
        'enum',
        `${target.list.path} lists only ${allowed.join(', ')}; not ${outside.join(', ')}`,
      );
    }
    nodeTypes = nodeTypes ?? [...allowed];
  }
  const { sortKey = 'nodeId', order = 'ASC', draft = true, modifiedSince, name } = query;
  const path = target.kind === 'children' ? target.parentId : target.kind === 'typed' ? target.list.path : '';
  const fingerprint = queryFingerprint({
    path,
    sortKey,
    order,
    nodeTypes,
    status: query.nodeStatus,
    name,
    modifiedSince,
    draft,
    relatedTo: query.relatedTo,
    relation: query.relation,
    responsibility: query.responsibility,
  });
  const { cursor, currentPage } = pagePosition(query, fingerprint);
  const pageSize = query.pageSize ?? DEFAULT_PAGE_SIZE;
  if (!cursor && (currentPage - 1) * pageSize > MAX_OFFSET) {
    throw queryError(
      'currentPage',
      'maximum',
      `may start at most ${MAX_OFFSET} objects in; walk further with cursor`,
    );
  }
  return {
    pageSize,
    sortKey,
    order,
    ...(nodeTypes ? { nodeTypes } : {}),
    ...(query.nodeStatus ? { nodeStatus: query.nodeStatus } : {}),
    ...(name !== undefined ? { name } : {}),
    ...(modifiedSince ? { modifiedSince } : {}),
    draft,
    ...(cursor ? { cursor } : {}),
    currentPage,
    fingerprint,
  };
}

/** Where a list reads from and how its exact total is counted. */
interface ListSource {
  partitions: ListPartition[];
  /** nodeTypes checked on the entries (partitions of one type need no check). */
  entryNodeTypes?: string[];
  /** The exact number of objects the partitions hold for the types and status asked, from counts. */
  total: () => Promise<number>;
  /** False when the partitions turned out to miss a readable root (readable-roots.ts): list again. */
  current: Promise<boolean>;
}

const notFound = (nodeId: string) => new NotFoundError('NODE_NOT_FOUND', `No object with nodeId ${nodeId}`);

/**
 * A folder's children. The partition and the counts are keyed by the parent's id alone, so they are read
 * beside the parent itself: `parent` settles once the caller is known to be allowed to read it (else it
 * rejects with a 404), and nothing read may be answered before.
 */
function childrenSource(
  caller: Caller,
  parentId: string,
  p: ListParameters,
  // The parent and its counts are one read (they share its partition), maybe started beside the session.
  read: Promise<FolderAndCounts> = findNodeWithCounts(parentId),
): { source: ListSource; parent: Promise<Node> } {
  // Awaited by every caller, but maybe after other reads.
  const parent = awaitedLater(
    read.then(({ node }) => {
      if (!node || node.deleted || !can(caller, node, 'read')) throw notFound(parentId);
      return node;
    }),
  );
  const types = p.nodeTypes && new Set(p.nodeTypes);
  return {
    parent,
    source: {
      partitions: [childrenPartition(parentId)],
      ...(p.nodeTypes ? { entryNodeTypes: p.nodeTypes } : {}),
      total: async () => sumCounts((await read).counts, 'k', types, p.nodeStatus),
      current: Promise.resolve(true),
    },
  };
}

const childrenPartition = (parentId: string): ListPartition => ({
  scope: 'parent',
  partition: listPartition.parent(parentId),
});

/** A root's subtree: its descendants from its counts, and itself. */
function subtreeTotal(
  root: Node,
  counts: NodeCounts,
  types: Set<string> | undefined,
  status: NodeStatus | undefined,
): number {
  const itself = (!types || types.has(root.nodeType)) && (!status || root.nodeStatus === status) ? 1 : 0;
  return sumCounts(counts, 'd', types, status) + itself;
}

const FOLDERS_PER_QUERY = 40;

const chunks = <T>(items: T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

/** An environment's partition, or one per nodeType asked for; limited to some folders' subtrees. */
function environmentPartitions(
  environmentId: string,
  folders: string[] | undefined,
  nodeTypes: string[] | undefined,
): ListPartition[] {
  const within = folders ? { within: folders } : {};
  if (!nodeTypes)
    return [{ scope: 'environment', partition: listPartition.environment(environmentId), ...within }];
  return nodeTypes.map((type) => ({
    scope: 'type',
    partition: listPartition.type(environmentId, type),
    ...within,
  }));
}

function readableSource(readable: ReadableRoots, p: ListParameters): ListSource {
  const partitions = readable.environments.flatMap(({ environmentId, folders }): ListPartition[] =>
    // Folders are disjoint subtrees: a reader of many reads them in groups, each within DynamoDB's
    // expression size limits, and the merge puts the groups back in order.
    (folders ? chunks(folders, FOLDERS_PER_QUERY) : [undefined]).flatMap((group) =>
      environmentPartitions(environmentId, group, p.nodeTypes),
    ),
  );
  const types = p.nodeTypes && new Set(p.nodeTypes);
  return {
    partitions,
    current: readable.current,
    total: async () => {
      const [roots, counts] = await Promise.all([readable.roots, readCounts(readable.rootIds)]);
      return roots.reduce(
        (sum, root) => sum + subtreeTotal(root, counts.get(root.nodeId) ?? {}, types, p.nodeStatus),
        0,
      );
    },
  };
}

interface CollectedPage {
  nodes: ListedNode[];
  /** The entry of each node, for the next cursor. */
  last?: ListEntry;
  /** Matching objects before the page (offset paging), known exactly. */
  skipped: number;
  more: boolean;
}

/**
 * Takes the page from the ordered entries: skips, fetches, and applies the check only objects can answer.
 * Without such a check, entries before the page are only counted, and one entry past the page tells that
 * more follow: exactly pageSize objects are read.
 */
async function collectPage(
  entries: AsyncGenerator<ListEntry>,
  skip: number,
  take: number,
  copy: 'DRAFT' | 'PUBLISHED',
  check: ((node: ListedNode) => boolean) | undefined,
  parents: ParentNames,
): Promise<CollectedPage> {
  const page: { node: ListedNode; entry: ListEntry }[] = [];
  let skipped = 0;
  let batch: ListEntry[] = [];
  /** Fetches the batch (without a check, only what the page still needs); true when more follow. */
  const flush = async (): Promise<boolean> => {
    const fetching = check ? batch : batch.slice(0, take - page.length);
    batch = batch.slice(fetching.length);
    const entryOf = new Map(fetching.map((entry) => [entry.nodeId, entry]));
    // Without a check, every object fetched is on the page: its parent is read beside it.
    if (!check) parents.prefetch(fetching.map((entry) => entry.parentId));
    for (const node of await fetchListed(fetching, copy)) {
      if (check && !check(node)) continue;
      if (skipped < skip) skipped++;
      else if (page.length < take) page.push({ node, entry: entryOf.get(node.nodeId) as ListEntry });
      else return true;
    }
    return page.length === take && batch.length > 0;
  };
  const done = (more: boolean): CollectedPage => ({
    nodes: page.map((e) => e.node),
    last: page.at(-1)?.entry,
    skipped,
    more,
  });
  let uncounted = check ? 0 : skip;
  for await (const entry of entries) {
    if (uncounted > 0) {
      uncounted--;
      skipped++;
      continue;
    }
    batch.push(entry);
    if (batch.length > take - page.length && (await flush())) return done(true);
  }
  return done(batch.length > 0 && (await flush()));
}

/**
 * The listed objects' parents, for `parent` { nodeId, name, nodeType }: one read per distinct parent (at
 * most pageSize; names need no strong consistency). Parents known from the index entries are read as soon
 * as the entries are, beside the objects themselves, not after them. A parent the caller may not read (a
 * role granted below it) is not named: its element's parent is null, as for an environment.
 */
class ParentNames {
  private readonly reads = new Map<string, Promise<Placed | undefined>>();

  /**
   * `known`: a parent already being read (a folder whose children are listed), as its working copy names
   * it; `copy`: the copy the list shows, whose view names parents as published (findParentNodesAsShown).
   */
  constructor(
    private readonly caller: Caller,
    known?: { nodeId: string; read: Promise<(Placed & Pick<Node, 'publishedNodeVersionId'>) | undefined> },
    private readonly copy: NodeCopy = 'DRAFT',
  ) {
    if (!known) return;
    // A published view reads the published copy of a known parent only if it has one.
    const read =
      copy === 'DRAFT'
        ? known.read
        : known.read.then(async (parent) =>
            parent?.publishedNodeVersionId
              ? ((await findParentNodes([parent.nodeId], { consistent: false, copy }))[0] ?? parent)
              : parent,
          );
    this.reads.set(known.nodeId, awaitedLater(read));
  }

  /** Starts reading the parents not read yet. */
  prefetch(parentIds: readonly (string | null)[]): void {
    const missing = [...new Set(parentIds)].filter((id): id is string => id !== null && !this.reads.has(id));
    if (missing.length === 0) return;
    const read = findParentNodesAsShown(missing, { consistent: false, copy: this.copy });
    for (const id of missing) {
      // Awaited by of(), unless the page failed first.
      this.reads.set(id, awaitedLater(read.then((nodes) => nodes.find((node) => node.nodeId === id))));
    }
  }

  async of(nodes: readonly ListedNode[]): Promise<Map<string, ListElement['parent']>> {
    const ids = [...new Set(nodes.flatMap((node) => (node.parentId ? [node.parentId] : [])))];
    this.prefetch(ids);
    const parents = await Promise.all(ids.map((id) => this.reads.get(id)));
    return new Map(
      parents.flatMap((parent) =>
        parent && can(this.caller, parent, 'read')
          ? [[parent.nodeId, { nodeId: parent.nodeId, name: parent.name, nodeType: parent.nodeType }]]
          : [],
      ),
    );
  }
}

/** A parent as ParentNames names it: its name, and where it sits (who may read it). */
type Placed = Pick<Node, 'nodeId' | 'name' | 'nodeType' | 'ancestorIds'>;

type FolderAndCounts = Awaited<ReturnType<typeof findNodeWithCounts>>;
type Held = Awaited<ReturnType<typeof responsibilitiesOfPrincipal>>;

/** What the entries are read with: index-side filters, the key range, and the check only objects answer. */
function entryQuery(p: ListParameters, entryNodeTypes: string[] | undefined, analyzer: boolean) {
  const filter: EntryFilter = {
    ...(entryNodeTypes ? { nodeTypes: entryNodeTypes } : {}),
    ...(p.nodeStatus ? { nodeStatus: p.nodeStatus } : {}),
    ...(p.name !== undefined ? { nameContains: p.name } : {}),
    ...(p.draft ? {} : { publishedOnly: true }),
    ...(analyzer ? { needsAttention: true } : {}),
  };
  const sinceOnKey = p.modifiedSince && p.sortKey === 'modificationDate';
  const range: EntryRange = {
    sortKey: p.sortKey,
    order: p.order,
    ...(p.cursor ? { after: p.cursor.after } : {}),
    ...(sinceOnKey ? { atLeast: p.modifiedSince } : {}),
  };
  const since = p.modifiedSince && !sinceOnKey ? Date.parse(p.modifiedSince) : undefined;
  const check =
    since === undefined ? undefined : (node: ListedNode) => Date.parse(node.modificationDate) >= since;
  return { filter, range, check };
}

/** A page's entries, their first read under way. */
interface PageEntries {
  entries: AsyncGenerator<ListEntry>;
  /** Entries still to pass over before the page (offset paging that could not count them). */
  skip: number;
  /** Entries passed over by counting them. */
  skippedByCount: number;
}

async function pageEntries(
  partitions: ListPartition[],
  query: ReturnType<typeof entryQuery>,
  p: ListParameters,
): Promise<PageEntries> {
  const { filter, check } = query;
  const range = { ...query.range };
  let skip = p.cursor ? 0 : (p.currentPage - 1) * p.pageSize;
  // A page by number of one unfiltered partition counts the entries before it instead of reading them.
  let skippedByCount = 0;
  if (skip > 0 && !check && skippableByCount(partitions, filter)) {
    const skipped = await skipEntries(partitions[0] as ListPartition, range, skip);
    if (skipped.exhausted) return { entries: noEntries(), skip: 0, skippedByCount: skipped.skipped };
    [skippedByCount, skip] = [skipped.skipped, 0];
    if (skipped.after !== undefined) range.after = skipped.after;
  }
  const entries = primed(listEntries(partitions, filter, range, skip + p.pageSize));
  return { entries, skip, skippedByCount };
}

/**
 * The reads of a folder's children list that need only the request and the principal the token names,
 * so they start beside the session check (handle's prefetch): the folder with its counts, the page's
 * entries, and the caller's responsibilities. Nothing read here is answered before listObjects has
 * checked that the caller may read the folder. Related lists read otherwise: undefined.
 */
export interface ChildrenListStart {
  parentId: string;
  folder: Promise<FolderAndCounts>;
  page: Promise<PageEntries>;
  responsibilities: Promise<Held>;
}

export function startChildrenList(
  parentId: string,
  query: ListQuery,
  principalId: string,
): ChildrenListStart | undefined {
  if (query.relatedTo || query.responsibility || query.relation) return undefined;
  const p = parametersOf({ kind: 'children', parentId }, query);
  return {
    parentId,
    folder: awaitedLater(findNodeWithCounts(parentId)),
    page: awaitedLater(pageEntries([childrenPartition(parentId)], entryQuery(p, p.nodeTypes, false), p)),
    responsibilities: awaitedLater(responsibilitiesOfPrincipal(principalId)),
  };
}

export async function listObjects(
  caller: Caller,
  target: ListTarget,
  query: ListQuery,
  { freshRoots = false, started }: { freshRoots?: boolean; started?: ChildrenListStart } = {},
): Promise<ListPage<ListElement | AnalyzerElement>> {
  const p = parametersOf(target, query);
  const analyzer = target.kind === 'typed' && target.list.kind === 'analyzer';
  if (query.relatedTo || query.responsibility || query.relation) {
    return relatedList(caller, target, query, p, analyzer);
  }
  const children = target.kind === 'children' && started?.parentId === target.parentId ? started : undefined;
  let source: ListSource;
  let parentRead: Promise<Node | undefined> = Promise.resolve(undefined);
  if (target.kind === 'children') {
    const childList = childrenSource(caller, target.parentId, p, children?.folder);
    source = childList.source;
    parentRead = childList.parent;
  } else {
    source = readableSource(await readableRoots(caller, { fresh: freshRoots }), p);
  }
  const entryReads = entryQuery(p, source.entryNodeTypes, analyzer);
  const page = await (children?.page ?? pageEntries(source.partitions, entryReads, p));
  // The caller's responsibilities and the parent (with the right to read it) do not depend on the page:
  // read beside it, and the page is answered only once the parent may be read.
  const parentNames = new ParentNames(
    caller,
    target.kind === 'children' ? { nodeId: target.parentId, read: parentRead } : undefined,
    p.draft ? 'DRAFT' : 'PUBLISHED',
  );
  const [collected, countedTotal, held, current] = await Promise.all([
    collectPage(
      page.entries,
      page.skip,
      p.pageSize,
      p.draft ? 'DRAFT' : 'PUBLISHED',
      entryReads.check,
      parentNames,
    ),
    source.total(),
    children?.responsibilities ?? responsibilitiesOf(caller),
    source.current,
    parentRead,
  ]);
  // An environment created since this instance last looked: the page may lack its objects.
  if (!current) return listObjects(caller, target, query, { freshRoots: true });
  const [parents, relationCounts] = await Promise.all([
    parentNames.of(collected.nodes),
    readRelationCountsOf(collected.nodes, p.draft ? 'DRAFT' : 'PUBLISHED'),
  ]);
  const results = collected.nodes.map((node) => {
    const element = toListElement(node, node.parentId ? (parents.get(node.parentId) ?? null) : null, {
      ...(relationCounts.has(node.nodeId) ? { counts: relationCounts.get(node.nodeId) } : {}),
      responsibilities: responsibilitiesOn(held, node.nodeId),
    });
    return analyzer ? toAnalyzerElement(element, node) : element;
  });
  // Counts cover type and status; other filters leave the count an upper bound, unless this page ends the list.
  const counted = p.name === undefined && !p.modifiedSince && p.draft && !analyzer;
  // Matching objects before this page: counted for a page by number, carried by a walk's cursor.
  const before = p.cursor ? p.cursor.seen : page.skippedByCount + collected.skipped;
  const endKnown = !collected.more && before !== undefined;
  const totalRecords = !counted && endKnown ? (before ?? 0) + results.length : countedTotal;
  return {
    totalRecords,
    totalRecordsExact: counted || endKnown,
    sortKey: p.sortKey,
    order: p.order,
    pageSize: p.pageSize,
    currentPage: p.currentPage,
    results,
    nextCursor:
      collected.more && collected.last
        ? encodeCursor(
            {
              after: collected.last.sortValue,
              page: p.currentPage + 1,
              ...(before !== undefined ? { seen: before + results.length } : {}),
            },
            p.fingerprint,
          )
        : null,
  };
}

async function* noEntries(): AsyncGenerator<ListEntry> {}

/** The same entries, the first of them asked for now: its read runs while the caller does other work. */
function primed<T>(source: AsyncGenerator<T>): AsyncGenerator<T> {
  const first = awaitedLater(source.next());
  return (async function* () {
    const head = await first;
    if (head.done) return;
    yield head.value;
    yield* source;
  })();
}

/** A list of related objects, or of objects the caller holds a responsibility on (related-lists.ts). */
async function relatedList(
  caller: Caller,
  target: ListTarget,
  query: ListQuery,
  p: ListParameters,
  analyzer: boolean,
): Promise<ListPage<ListElement | AnalyzerElement>> {
  let knownParent: Node | undefined;
  if (target.kind === 'children') knownParent = await childrenSource(caller, target.parentId, p).parent;
  const parentNames = new ParentNames(
    caller,
    knownParent ? { nodeId: knownParent.nodeId, read: Promise.resolve(knownParent) } : undefined,
    p.draft ? 'DRAFT' : 'PUBLISHED',
  );
  const inScope = (node: Node) =>
    (target.kind !== 'children' || node.parentId === target.parentId) &&
    (!analyzer || toAnalyzerElement(toListElement(node, null), node).findings.length > 0);
  const [page, held] = await Promise.all([
    candidatePage(
      caller,
      {
        ...(query.relatedTo ? { relatedTo: query.relatedTo } : {}),
        ...(query.relation ? { relation: query.relation } : {}),
        ...(query.responsibility ? { responsibility: query.responsibility } : {}),
      },
      p,
      inScope,
    ),
    responsibilitiesOf(caller),
  ]);
  const [parents, relationCounts] = await Promise.all([
    parentNames.of(page.nodes),
    readRelationCountsOf(page.nodes, p.draft ? 'DRAFT' : 'PUBLISHED'),
  ]);
  return {
    totalRecords: page.totalRecords,
    totalRecordsExact: true,
    sortKey: p.sortKey,
    order: p.order,
    pageSize: p.pageSize,
    currentPage: p.currentPage,
    results: page.nodes.map((node) => {
      const element = toListElement(node, node.parentId ? (parents.get(node.parentId) ?? null) : null, {
        ...(relationCounts.has(node.nodeId) ? { counts: relationCounts.get(node.nodeId) } : {}),
        responsibilities: responsibilitiesOn(held, node.nodeId),
      });
      return analyzer ? toAnalyzerElement(element, node) : element;
    }),
    nextCursor: page.nextCursor,
  };
}

/** The maturity list takes paging only: it has one row per facet. */
const MATURITY_PARAMETERS = new Set(['pageSize', 'currentPage', 'cursor']);
/** What a maturity list cursor belongs to (it has no filters or sort choices). */
const MATURITY_FINGERPRINT = queryFingerprint({ list: 'maturity' });

export async function listMaturity(caller: Caller, query: ListQuery): Promise<ListPage<MaturityElement>> {
  const extra = Object.keys(query).filter((name) => !MATURITY_PARAMETERS.has(name));
  if (extra.length > 0) {
    throw new ValidationError(
      extra.map((name) => ({
        in: 'query' as const,
        path: `$.${name}`,
        rule: 'unrecognized_key',
        message: 'the maturity list takes only pageSize, currentPage and cursor',
      })),
    );
  }
  const { cursor, currentPage } = pagePosition(query, MATURITY_FINGERPRINT);
  const { pageSize = DEFAULT_PAGE_SIZE } = query;
  const rootsWithCounts = async (readable: ReadableRoots) =>
    Promise.all([readable.roots, readCounts(readable.rootIds), readable.current] as const);
  let [roots, counts, current] = await rootsWithCounts(await readableRoots(caller));
  // An environment created since this instance last looked: count again with it.
  if (!current) [roots, counts] = await rootsWithCounts(await readableRoots(caller, { fresh: true }));
  const count = (types: Set<string>, status: NodeStatus) =>
    roots.reduce((sum, root) => sum + subtreeTotal(root, counts.get(root.nodeId) ?? {}, types, status), 0);
  const rows = (Object.entries(FACET_ITEM_TYPES) as [Facet, readonly string[]][])
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([facet, types]) =>
      maturityElement(facet, types, count(new Set(types), 'IN_PROGRESS'), count(new Set(types), 'PUBLISHED')),
    );
  // A cursor resumes after the last facet it saw (facets are fixed, so a walk never skips or repeats one).
  const resumeAfter = (facet: string) => {
    const next = rows.findIndex((row) => row.facet > facet);
    return next === -1 ? rows.length : next;
  };
  const start = cursor ? resumeAfter(cursor.after) : (currentPage - 1) * pageSize;
  const results = rows.slice(start, start + pageSize);
  const last = results.at(-1);
  return {
    totalRecords: rows.length,
    totalRecordsExact: true,
    sortKey: 'facet',
    order: 'ASC',
    pageSize,
    currentPage,
    results,
    nextCursor:
      last && start + pageSize < rows.length
        ? encodeCursor({ after: last.facet, page: currentPage + 1 }, MATURITY_FINGERPRINT)
        : null,
  };
}
