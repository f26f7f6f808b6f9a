#!/usr/bin/env node
// load-mix.mjs — load bench of a mixed read/write workload with autocannon, against this project or a peer
// (Directus 11, Strapi 5), so that requests per second can be compared on the same mix.
//
// Flow: log in (as ../../../shared/peer-bench/bench-peer.mjs does, per system), make sure SEED objects exist
// (read targets, full list pages), a few sequential warm-up cycles, then DURATION seconds of autocannon at
// CONNECTIONS keep-alive connections, each looping over a fixed sequence of 10 requests: 7 get by id, 1 list
// page of PAGE_SIZE, 2 create (70/10/20). Gets pick a random object among the seeded ones and the creates
// acknowledged so far. Every create answered 2xx is recorded (id and the unique name sent); afterwards each
// one is read again by id and counted missing unless it answers 200 with the same id and name.
// Failed requests are never retried: a timeout or a non-2xx answer is counted and reported as it is.
//
// Env:
//   PEER         directus | strapi | ours   (default ours; ours = this project, EMAIL/PASSWORD = admin username/password)
//   BASE         base URL                   (default http://127.0.0.1:3000 ours, :8055 directus, :1337 strapi)
//   EMAIL        admin email / username     (default admin@example.com; admin for ours)
//   PASSWORD     admin password             (default peercheck-admin-pw)
//   DURATION     seconds of load            (default 20)
//   CONNECTIONS  concurrent connections     (default 20)
//   SEED         objects present before the load (default 1000)
//   PAGE_SIZE    list page size             (default 50)
//   WARMUP       sequential create/get/list/delete cycles before the load (default 20)
//   TIMEOUT      seconds before autocannon gives up on a response (default 10; counted as an error)
//   CLEANUP      1 = delete the objects created under load afterwards, so a peer's data does not grow
//                from run to run (default 1)
//   STRAPI_API_TOKEN  reuse this full-access API token instead of creating one per run (strapi)
//   JSON         1 = also print one line starting with {"peer" with the results
//
// Exit status: 0 when there were no errors, no non-2xx answers, no mismatches and no missing writes; 1 otherwise.

import autocannon from 'autocannon';

const PEER = process.env.PEER || 'ours';
const DEFAULT_BASE = {
  ours: 'http://127.0.0.1:3000',
  directus: 'http://127.0.0.1:8055',
  strapi: 'http://127.0.0.1:1337',
};
const BASE = (process.env.BASE || DEFAULT_BASE[PEER] || '').replace(/\/$/, '');
const EMAIL = process.env.EMAIL || (PEER === 'ours' ? 'admin' : 'admin@example.com');
const PASSWORD = process.env.PASSWORD || 'peercheck-admin-pw';
const DURATION = +(process.env.DURATION || 20);
const CONNECTIONS = +(process.env.CONNECTIONS || 20);
const SEED = +(process.env.SEED || 1000);
const PAGE_SIZE = +(process.env.PAGE_SIZE || 50);
const WARMUP = +(process.env.WARMUP || 20);
const TIMEOUT = +(process.env.TIMEOUT || 10);
const CLEANUP = (process.env.CLEANUP || '1') === '1';
const JSON_OUT = process.env.JSON === '1';

// The fixed mix: each connection loops over this sequence (7 get, 1 list, 2 create), connection k starting at
// position k mod 10, so that the connections do not create (or list) all at the same moment.
const SEQUENCE = ['get', 'create', 'get', 'get', 'list', 'get', 'get', 'create', 'get', 'get'];

let token = null;
const RUN = Date.now().toString(36);

function headers(withBody) {
  const h = { accept: 'application/json' };
  if (withBody) h['content-type'] = 'application/json';
  if (token) h.authorization = `Bearer ${token}`;
  return h;
}

async function http(method, path, body, { expect = [200], auth = true } = {}) {
  const h = headers(body !== undefined);
  if (!auth) delete h.authorization;
  const res = await fetch(BASE + path, {
    method,
    headers: h,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!expect.includes(res.status)) {
    throw new Error(`${method} ${path} -> HTTP ${res.status}: ${text.slice(0, 400)}`);
  }
  return text ? JSON.parse(text) : null;
}

const sample = (i, name) => ({
  name,
  parentId: i % 10 === 0 ? null : `parent-${i % 17}`,
  nodeType: i % 3 === 0 ? 'folder' : 'document',
  description: `benchmark node ${i} `.repeat(4),
});

// ---------------------------------------------------------------- adapters
// Each adapter describes its requests (method, path, body) so that the same definitions serve the sequential
// phases (fetch) and the load (autocannon), and reads its answers: created/item -> { id, name }, list -> ids, total.
const adapters = {
  directus: {
    async login() {
      const r = await http('POST', '/auth/login', { email: EMAIL, password: PASSWORD }, { auth: false });
      return r.data.access_token;
    },
    async setup() {
      try {
        await http('GET', '/collections/nodes');
        return 'collection nodes exists';
      } catch (e) {
        if (!/HTTP (403|404)/.test(e.message)) throw e;
      }
      await http('POST', '/collections', {
        collection: 'nodes',
        meta: { icon: 'account_tree' },
        schema: {},
        fields: [
          {
            field: 'id',
            type: 'uuid',
            meta: { special: ['uuid'], hidden: true, readonly: true },
            schema: { is_primary_key: true, length: 36, has_auto_increment: false },
          },
          { field: 'name', type: 'string', schema: { is_nullable: false } },
          { field: 'parentId', type: 'string', schema: { is_nullable: true, is_indexed: true } },
          { field: 'nodeType', type: 'string', schema: { is_nullable: false } },
          { field: 'description', type: 'text', schema: { is_nullable: true } },
        ],
      });
      return 'collection nodes created';
    },
    create: (d) => ({ method: 'POST', path: '/items/nodes', body: d }),
    created: (r) => ({ id: r.data.id, name: r.data.name }),
    get: (id) => ({ method: 'GET', path: `/items/nodes/${id}` }),
    item: (r) => ({ id: r.data.id, name: r.data.name }),
    list: (page) => ({
      method: 'GET',
      path: `/items/nodes?limit=${PAGE_SIZE}&page=${page}&sort=id&meta=total_count,filter_count`,
    }),
    page: (r) => ({ ids: r.data.map((x) => x.id), total: r.meta.filter_count }),
    del: (id) => ({ method: 'DELETE', path: `/items/nodes/${id}`, expect: [204] }),
  },

  strapi: {
    // Strapi 5: admin login -> admin JWT -> a full-access API token -> REST content API /api/nodes.
    async login() {
      const r = await http('POST', '/admin/login', { email: EMAIL, password: PASSWORD }, { auth: false });
      return r.data.token;
    },
    async setup() {
      if (process.env.STRAPI_API_TOKEN) {
        token = process.env.STRAPI_API_TOKEN;
        return 'api token from STRAPI_API_TOKEN';
      }
      const r = await http(
        'POST',
        '/admin/api-tokens',
        { name: `load-mix-${RUN}`, description: 'load bench', type: 'full-access', lifespan: null },
        { expect: [200, 201] },
      );
      token = r.data.accessKey;
      return 'api token created';
    },
    create: (d) => ({ method: 'POST', path: '/api/nodes', body: { data: d }, expect: [200, 201] }),
    created: (r) => ({ id: r.data.documentId, name: r.data.name }),
    get: (id) => ({ method: 'GET', path: `/api/nodes/${id}` }),
    item: (r) => ({ id: r.data.documentId, name: r.data.name }),
    list: (page) => ({
      method: 'GET',
      path: `/api/nodes?pagination[page]=${page}&pagination[pageSize]=${PAGE_SIZE}&pagination[withCount]=true&sort=id`,
    }),
    page: (r) => ({ ids: r.data.map((x) => x.documentId), total: r.meta.pagination.total }),
    del: (id) => ({ method: 'DELETE', path: `/api/nodes/${id}`, expect: [200, 204] }),
  },
};

// This project: one folder "peer-bench" under the first environment holds the objects, URL documents
// (the same requests as bench-peer.mjs's ours adapter).
const ours = { folder: null };
adapters.ours = {
  async login() {
    const res = await fetch(`${BASE}/api/v1/login/local`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: EMAIL, password: PASSWORD }),
      redirect: 'manual',
    });
    const c = (res.headers.getSetCookie?.() ?? []).find((x) => x.startsWith('access_token='));
    if (res.status !== 302 || !c) throw new Error(`login -> HTTP ${res.status}`);
    return c.split(';')[0].slice('access_token='.length);
  },
  async setup() {
    const envs = await http('GET', '/api/v1/list?nodeType=ENVIRONMENT');
    const envId = envs.results[0].nodeId;
    const kids = await http('GET', `/api/v1/list/${envId}?pageSize=1000`);
    const f = kids.results.find((r) => r.name === 'peer-bench' && r.nodeType === 'DOCUMENT_SET');
    ours.folder = f
      ? f.nodeId
      : (
          await http('POST', '/api/v1/items', {
            parent: { nodeId: envId },
            '@type': 'NodeElement',
            nodeType: 'DOCUMENT_SET',
            name: 'peer-bench',
          })
        ).nodeId;
    return `folder ${ours.folder}`;
  },
  create: (d) => ({
    method: 'POST',
    path: '/api/v1/items',
    body: {
      parent: { nodeId: ours.folder },
      '@type': 'Document',
      nodeType: 'DOCUMENT',
      documentType: 'URL',
      url: `https://example.com/${d.name}`,
      name: d.name,
      richTextDescription: `<p>${d.description}</p>`,
    },
  }),
  created: (r) => ({ id: r.nodeId, name: r.name }),
  get: (id) => ({ method: 'GET', path: `/api/v1/items/${id}` }),
  item: (r) => ({ id: r.nodeId, name: r.name }),
  list: (page) => ({
    method: 'GET',
    path: `/api/v1/list/${ours.folder}?pageSize=${PAGE_SIZE}&currentPage=${page}&sortKey=nodeId&order=ASC`,
  }),
  page: (r) => ({ ids: r.results.map((x) => x.nodeId), total: r.totalRecords }),
  del: (id) => ({ method: 'DELETE', path: `/api/v1/items/${id}`, body: {} }),
};

const A = adapters[PEER];
if (!A) {
  console.error(`unknown PEER=${PEER} (ours, directus or strapi)`);
  process.exit(2);
}
const call = (req) => http(req.method, req.path, req.body, { expect: req.expect ?? [200] });

// ---------------------------------------------------------------- helpers
/** Runs fn over items, at most `limit` at a time. */
async function pool(items, limit, fn) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
function quantile(sorted, p) {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] : Number.NaN;
}
const ms = (x) => (Number.isFinite(x) ? x.toFixed(1) : '-');
const now = () => performance.now();

// ---------------------------------------------------------------- login, setup, seed, warm-up
const t0 = now();
token = await A.login();
if (A.setup) console.error(`setup: ${await A.setup()}`);

let { total } = A.page(await call(A.list(1)));
if (total < SEED) {
  console.error(`seeding ${SEED - total} objects (existing ${total}) ...`);
  const todo = Array.from({ length: SEED - total }, (_, k) => total + k);
  await pool(todo, 4, (i) => call(A.create(sample(i, `seed-${RUN}-${i}`))));
  total = A.page(await call(A.list(1))).total;
}
const pages = Math.max(1, Math.floor(Math.min(total, SEED) / PAGE_SIZE));
// Read targets: the objects on the first pages (at least SEED of them when the data holds more).
const targets = [];
for (let p = 1; p <= Math.ceil(SEED / PAGE_SIZE); p++) targets.push(...A.page(await call(A.list(p))).ids);
if (targets.length === 0) throw new Error('no objects to read');
console.error(`objects: ${total}, read targets: ${targets.length}, full list pages: ${pages}`);

for (let i = 0; i < WARMUP; i++) {
  const c = A.created(await call(A.create(sample(i, `warm-${RUN}-${i}`))));
  await call(A.get(c.id));
  await call(A.list(1 + (i % pages)));
  await call(A.del(c.id));
}

// ---------------------------------------------------------------- the load
const ops = Object.fromEntries(
  ['get', 'list', 'create'].map((op) => [
    op,
    { n: 0, statuses: {}, latencies: [], mismatches: 0, samples: [] },
  ]),
);
const acknowledged = []; // { id, name } of every create answered 2xx
const readable = [...targets]; // get targets: seeded objects and the creates acknowledged so far
const problems = []; // first non-2xx answers and mismatches, with operation, status and body
let created = 0;
let lastOp = null;
const errorCodes = {};

function note(op, status, body, what) {
  const o = ops[op];
  const key = `${op} ${status} ${what}`;
  if (o.samples.filter((s) => s.key === key).length < 3) {
    const s = { key, op, status, what, body: String(body).slice(0, 300) };
    o.samples.push(s);
    problems.push(s);
  }
}

function onResponseOf(op, check) {
  return (status, body, context) => {
    lastOp = op;
    const o = ops[op];
    o.n++;
    o.statuses[status] = (o.statuses[status] ?? 0) + 1;
    if (status < 200 || status > 299) {
      note(op, status, body, context.id ? `id ${context.id}` : context.name ? `name ${context.name}` : '');
      return;
    }
    let r;
    try {
      r = JSON.parse(body);
    } catch {
      o.mismatches++;
      note(op, status, body, 'answer is not JSON');
      return;
    }
    try {
      const bad = check(r, context);
      if (bad) {
        o.mismatches++;
        note(op, status, body, bad);
      }
    } catch (e) {
      o.mismatches++;
      note(op, status, body, `unreadable answer: ${e.message}`);
    }
  };
}

const withHeaders = (req) => ({
  method: req.method,
  path: req.path,
  headers: headers(req.body !== undefined),
  body: req.body === undefined ? undefined : JSON.stringify(req.body),
});

const steps = {
  get: {
    op: 'get',
    setupRequest: (request, context) => {
      context.id = readable[Math.floor(Math.random() * readable.length)];
      context.name = undefined;
      return { ...request, ...withHeaders(A.get(context.id)) };
    },
    onResponse: onResponseOf('get', (r, context) => {
      const it = A.item(r);
      return it.id === context.id ? null : `asked for ${context.id}, got ${it.id}`;
    }),
  },
  list: {
    op: 'list',
    setupRequest: (request, context) => {
      context.id = undefined;
      context.name = undefined;
      context.page = 1 + Math.floor(Math.random() * pages);
      return { ...request, ...withHeaders(A.list(context.page)) };
    },
    onResponse: onResponseOf('list', (r, context) => {
      const p = A.page(r);
      return p.ids.length === PAGE_SIZE
        ? null
        : `page ${context.page}: ${p.ids.length} objects, total ${p.total}`;
    }),
  },
  create: {
    op: 'create',
    setupRequest: (request, context) => {
      const i = created++;
      context.id = undefined;
      context.name = `load-${RUN}-${i}`;
      return { ...request, ...withHeaders(A.create(sample(i, context.name))) };
    },
    onResponse: onResponseOf('create', (r, context) => {
      const c = A.created(r);
      if (!c.id) return 'no id in the answer';
      acknowledged.push({ id: c.id, name: context.name });
      readable.push(c.id);
      return c.name === context.name ? null : `sent name ${context.name}, answer has ${c.name}`;
    }),
  },
};

let clients = 0;
const sequenceFrom = (k) =>
  SEQUENCE.map((_, i) => SEQUENCE[(i + k) % SEQUENCE.length]).map((op) => ({ ...steps[op] }));

console.error(`load: ${DURATION}s at ${CONNECTIONS} connections, mix ${SEQUENCE.join(',')} ...`);
const instance = autocannon({
  url: BASE,
  connections: CONNECTIONS,
  duration: DURATION,
  timeout: TIMEOUT,
  pipelining: 1,
  requests: sequenceFrom(0),
  setupClient(client) {
    client.setRequests(sequenceFrom(clients++));
    // a timeout or connection error hits the request in flight (pipelining 1); it is not retried
    const failed = (kind) => (err) => {
      const op = client.requestIterator?.currentRequest?.op ?? 'unknown';
      const key = `${op} ${kind}${err?.code ? ` ${err.code}` : ''}`;
      errorCodes[key] = (errorCodes[key] ?? 0) + 1;
    };
    client.on('timeout', failed('timeout'));
    client.on('connError', failed('connection error'));
  },
});
instance.on('response', (_client, _status, _bytes, responseTime) => {
  if (lastOp) ops[lastOp].latencies.push(responseTime);
  lastOp = null;
});
const result = await instance;

// ---------------------------------------------------------------- every acknowledged write, read again
const missing = [];
await pool(acknowledged, 8, async (w) => {
  const req = A.get(w.id);
  const res = await fetch(BASE + req.path, { headers: headers(false) });
  const text = await res.text();
  let it = null;
  try {
    it = res.status === 200 ? A.item(JSON.parse(text)) : null;
  } catch {}
  if (!it || it.id !== w.id || it.name !== w.name) {
    missing.push({ id: w.id, name: w.name, status: res.status, body: text.slice(0, 300) });
  }
});
const after = A.page(await call(A.list(1))).total;

if (CLEANUP && acknowledged.length) {
  const failedDeletes = [];
  await pool(acknowledged, 4, async (w) => {
    try {
      await call(A.del(w.id));
    } catch (e) {
      failedDeletes.push(e.message);
    }
  });
  console.error(
    `cleanup: deleted ${acknowledged.length - failedDeletes.length} of ${acknowledged.length} created objects` +
      (failedDeletes.length ? ` (first failure: ${failedDeletes[0]})` : ''),
  );
}

// ---------------------------------------------------------------- report
const completed = result.requests.total;
const rps = completed / result.duration;
const non2xx = result.non2xx;
const mismatches = Object.values(ops).reduce((s, o) => s + o.mismatches, 0);
const byOp = {};
for (const [op, o] of Object.entries(ops)) {
  const l = o.latencies.sort((a, b) => a - b);
  byOp[op] = {
    n: o.n,
    p50: quantile(l, 0.5),
    p99: quantile(l, 0.99),
    statuses: o.statuses,
    mismatches: o.mismatches,
  };
}
const summary = {
  peer: PEER,
  base: BASE,
  duration: result.duration,
  connections: CONNECTIONS,
  mix: { get: 70, list: 10, create: 20 },
  objectsBefore: total,
  objectsAfter: after,
  requests: completed,
  rps: Math.round(rps * 10) / 10,
  latency: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max },
  errors: result.errors,
  timeouts: result.timeouts,
  non2xx,
  mismatches,
  statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats).map(([k, v]) => [k, v.count])),
  errorsByOp: errorCodes,
  writesAcknowledged: acknowledged.length,
  writesMissing: missing.length,
  // creates sent whose answer never came (in flight when the load stopped, or timed out): the server may
  // have stored them, which is why objectsAfter - objectsBefore can exceed writesAcknowledged by up to this
  createsUnanswered: created - ops.create.n,
  byOp,
  problems: problems.slice(0, 20),
  missingSamples: missing.slice(0, 5),
};

console.log(
  `peer=${PEER} base=${BASE} duration=${result.duration}s connections=${CONNECTIONS} mix=get70/list10/create20 ` +
    `objects=${total}->${after} node=${process.version} wall=${((now() - t0) / 1000).toFixed(1)}s`,
);
console.log(
  `requests ${completed}  req/s ${rps.toFixed(1)}  latency p50 ${result.latency.p50} ms  p99 ${result.latency.p99} ms  max ${result.latency.max} ms`,
);
console.log('op       n        p50(ms)  p99(ms)  statuses');
for (const [op, s] of Object.entries(byOp)) {
  console.log(
    `${op.padEnd(8)} ${String(s.n).padStart(7)}  ${ms(s.p50).padStart(7)}  ${ms(s.p99).padStart(7)}  ${JSON.stringify(s.statuses)}` +
      (s.mismatches ? `  mismatches ${s.mismatches}` : ''),
  );
}
console.log(
  `errors ${result.errors} (timeouts ${result.timeouts})  non-2xx ${non2xx}  mismatches ${mismatches}  ` +
    `writes acknowledged ${acknowledged.length}, missing afterwards ${missing.length} ` +
    `(creates unanswered when the load stopped: ${created - ops.create.n})`,
);
for (const [k, n] of Object.entries(errorCodes)) console.log(`  error: ${k} x${n}`);
for (const p of problems.slice(0, 20)) console.log(`  ${p.op} -> ${p.status} ${p.what}: ${p.body}`);
for (const m of missing.slice(0, 5)) console.log(`  missing ${m.id} (${m.name}) -> ${m.status}: ${m.body}`);
if (JSON_OUT) console.log(JSON.stringify(summary));
const clean = result.errors === 0 && non2xx === 0 && mismatches === 0 && missing.length === 0;
process.exit(clean ? 0 : 1);
