/**
 * `npm run bench`: figures as ratios to a baseline measured in the same run (machines are shared and
 * noisy), plus counts that do not drift (bundle bytes, consumed capacity).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { startBenchStack } from './bench-stack.ts';
import { type BundleFigures, measureBundles } from './bundles.ts';
import { measureCapacity } from './capacity.ts';
import { BEFORE_REF, measureContention } from './contention.ts';
import { measureFeedCost } from './feed-cost.ts';
import { measureListCost, type PageCost } from './list-cost.ts';
import { measureLoginCost } from './login-cost.ts';
import { measureProcessCost } from './process-cost.ts';
import { measureRequestProfile } from './request-profile.ts';
import { measureUploadCost, UPLOAD_COST_GOALS } from './upload-cost.ts';
import { measureWebhookDelay } from './webhook-delay.ts';

const TARGETS = { bundleRatio: 1.15, embeddedOverhead: 1.5, retrieveRcuBeyondSession: 1, updateWcu: 3 };
const mark = (ok: boolean) => (ok ? 'ok  ' : 'MISS');
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

const bundles = await measureBundles();
const { baseline, leanBaseline } = bundles;
console.log(
  '\nFunction bundles (minified ESM, AWS SDK included): what a cold start loads, in bytes and import time as ratios to the baseline',
);
console.log(
  `  ${'baseline: DynamoDB client only'.padEnd(34)} ${kb(baseline.bytes).padStart(10)}   1.00   1.00`,
);
const bundleLine = (f: BundleFigures) => {
  const bytesRatio = f.bytes / baseline.bytes;
  const ok = bytesRatio <= TARGETS.bundleRatio && f.importRatio <= TARGETS.bundleRatio;
  const lazy = f.lazyBytes ? `, ${kb(f.lazyBytes)} more when a request needs it` : '';
  return (
    `  ${f.name.padEnd(34)} ${kb(f.bytes).padStart(10)}   ${bytesRatio.toFixed(2)}   ${f.importRatio.toFixed(2)}` +
    `  (${(f.bytes / leanBaseline.bytes).toFixed(2)} of the lean baseline's bytes${lazy})  ${mark(ok)}`
  );
};
console.log(bundleLine(leanBaseline).replace(/\(.*\)\s+\S+\s*$/, '(lean baseline)'));
for (const f of bundles.functions) console.log(bundleLine(f));

// One embedded stack for every capacity figure: the data layer's clients are made once per process.
const bench = await startBenchStack('capacity');
const capacity = await measureCapacity(bench);
const session = capacity.sessionCheck;
console.log(
  '\nDynamoDB consumed capacity and calls per request (table; dynalite meters no GSI writes, see README; every request reads its session)',
);
console.log(
  `  ${'session check (every request)'.padEnd(32)} RCU ${session.readCapacityUnits}  WCU ${session.writeCapacityUnits}`,
);
for (const op of capacity.operations) {
  console.log(
    `  ${op.operation.padEnd(32)} RCU ${op.readCapacityUnits}  WCU ${op.writeCapacityUnits}  ` +
      `calls ${op.dynamoCalls}, ${op.dynamoRoundTrips} one after another`,
  );
}
const retrieve = capacity.operations.find((o) => o.operation === 'retrieve');
const update = capacity.operations.find((o) => o.operation === 'update');
const retrieveBeyondSession = (retrieve?.readCapacityUnits ?? 0) - session.readCapacityUnits;
console.log(
  `\nTargets: retrieve ${retrieveBeyondSession} RCU beyond the session check (≤ ${TARGETS.retrieveRcuBeyondSession}) ${mark(retrieveBeyondSession <= TARGETS.retrieveRcuBeyondSession)}; ` +
    `update ${update?.writeCapacityUnits} WCU on the table (≤ ${TARGETS.updateWcu}) ${mark((update?.writeCapacityUnits ?? 99) <= TARGETS.updateWcu)}`,
);

const { authCost } = capacity;
console.log(
  '\nAuthentication and permission check per request (retrieve with it / the same retrieve without it)',
);
console.log(`  latency ratio (median of alternating in-process calls): ${authCost.latencyRatio.toFixed(2)}`);
console.log(
  `  consumed: RCU ${authCost.withAuth.readCapacityUnits} vs ${authCost.withoutAuth.readCapacityUnits}, ` +
    `WCU ${authCost.withAuth.writeCapacityUnits} vs ${authCost.withoutAuth.writeCapacityUnits} ` +
    '(plus one settings read per function instance a minute, one session write a minute while active)',
);

const profile = await measureRequestProfile(bench);
console.log(
  `\nWhere a retrieve's time goes on the embedded stack (${profile.calls} DynamoDB calls, ${profile.roundTrips} one after another)`,
);
console.log(
  `  the request over its DynamoDB calls replayed with a bare SDK client (median of alternating pairs): ` +
    `${profile.overheadRatio.toFixed(2)} (≤ ${TARGETS.embeddedOverhead}) ${mark(profile.overheadRatio <= TARGETS.embeddedOverhead)}`,
);
console.log(
  '  busy CPU time, by where the sampled code lives (one process runs client, function and store):',
);
for (const { part, share } of profile.breakdown)
  console.log(`  ${(share * 100).toFixed(1).padStart(6)}%  ${part}`);

const loginCost = await measureLoginCost(bench);
console.log(
  `\nLogin over one scrypt verification at OWASP's parameters (N=2^17, r=8, p=1), median of ${loginCost.rounds} ` +
    `alternating pairs: ${loginCost.ratio.toFixed(2)} (the hash is the cost by design; the rest is the difference)`,
);

const feedCost = await measureFeedCost(bench);
console.log(
  `\nChange feed (${feedCost.writes} updates of one folder; the recorder runs on the stream, off the request)`,
);
console.log(
  `  per write: the request's own ${feedCost.requestWcuPerWrite.toFixed(2)} WCU (the feed adds nothing to it); ` +
    `the recorder ${feedCost.recorderWcuPerChange.toFixed(2)} WCU and ${feedCost.recorderRcuPerChange.toFixed(2)} RCU ` +
    `per change (goal: at most 1 extra write unit) ${mark(feedCost.recorderWcuPerChange <= 1)}`,
);
for (const [pageSize, rcu] of Object.entries(feedCost.rcuPer1000))
  console.log(
    `  reading ${feedCost.changesRead} changes in pages of ${pageSize}: ${feedCost.pages[Number(pageSize)]} requests, ` +
      `${rcu} RCU per 1,000 changes (session reads included)`,
  );

const webhookDelay = await measureWebhookDelay(bench);
console.log(
  `\nWebhooks: ${webhookDelay.deliveries} creates, each delivered to a receiver on this machine (the stream, the ` +
    'recorder, the dispatcher, the delivery queue, the POST), from the create answered to the message received',
);
console.log(
  `  delay median ${webhookDelay.medianMs} ms, p99 ${webhookDelay.p99Ms} ms, max ${webhookDelay.maxMs} ms; ` +
    `signatures ${webhookDelay.verified ? 'verified, each message once' : 'WRONG'}`,
);

const processCost = await measureProcessCost(bench);
const uploadCost = await measureUploadCost(bench, bench.stack);
// The library is seeded in-process through the write path, with the stack's configuration.
const listCost = await bench.stack.run(() => measureListCost(bench));
await bench.close();
console.log(
  '\nProcess diagrams: write cost (table RCU/WCU summed over the requests; time as the median of 3 rounds)',
);
for (const cost of [
  processCost.oneCall,
  processCost.oneByOne,
  processCost.addNodes500,
  processCost.bpmnImport,
]) {
  console.log(
    `  ${cost.label.padEnd(48)} ${String(cost.requests).padStart(4)} request(s)  RCU ${cost.readCapacityUnits}  ` +
      `WCU ${cost.writeCapacityUnits}  ${cost.medianMs} ms`,
  );
}
console.log(
  `  one by one / one call: time ${processCost.oneByOneTimeRatio}, WCU ${processCost.oneByOneWcuRatio}; ` +
    `BPMN import / add-nodes of the same 500 tasks: time ${processCost.importTimeRatio}`,
);
const { throughput, assemblyMemory } = uploadCost;
console.log(
  `\nUploads: a ${(throughput.fileBytes / 1e6).toFixed(1)} MB file in ${throughput.chunks} chunks of ` +
    `${(throughput.chunkBytes / 1024 / 1024).toFixed(0)} MiB through POST /upload/ (one connection, median of ` +
    `${throughput.rounds} rounds) against PutObject of the same chunks to the same embedded S3`,
);
console.log(
  `  until complete (chunks, receipts, then the file assembled): ${throughput.uploadMBps} MB/s, ratio ` +
    `${throughput.uploadRatio} ${mark(throughput.uploadRatio >= UPLOAD_COST_GOALS.uploadRatio)} (goal ≥ ${UPLOAD_COST_GOALS.uploadRatio})`,
);
console.log(
  `  receiving the chunks only: ${throughput.receivingMBps} MB/s, ratio ${throughput.receivingRatio}; ` +
    `raw PutObject ${throughput.rawPutMBps} MB/s; file and SHA-256 ${throughput.verified ? 'verified' : 'WRONG'}`,
);
const growth = assemblyMemory.peakGrowthMb.heapUsedPlusExternal;
console.log(
  `  assembling a ${(assemblyMemory.fileBytes / 1e6).toFixed(0)} MB file: peak memory growth (heap + external) ` +
    `${growth} MB ${mark(growth < UPLOAD_COST_GOALS.assemblyGrowthMb)} (goal < ${UPLOAD_COST_GOALS.assemblyGrowthMb} MB), ` +
    `rss ${assemblyMemory.peakGrowthMb.rss} MB, in ${assemblyMemory.assemblySeconds} s; size and SHA-256 ` +
    `${Object.values(assemblyMemory.verified).every(Boolean) ? 'verified' : 'WRONG'}`,
);
console.log(
  '\nRead capacity (RCU) per list page as the library grows (session check included; page 1 at pageSize 50, ' +
    'full cursor walk at pageSize 1000; each page also reads its distinct parents once, and the seeded ' +
    'library keeps its 11 folders at every size)',
);
for (const list of listCost[0]?.lists.map((l) => l.list) ?? []) {
  console.log(`  ${list}`);
  for (const size of listCost) {
    const cost = size.lists.find((l) => l.list === list);
    if (!cost) continue;
    console.log(
      `    ${String(size.libraryObjects).padStart(6)} objects: page 1 ${String(cost.firstPage).padStart(5)} ` +
        `(calls ${cost.firstPageCalls}, ${cost.firstPageRoundTrips} one after another)   ` +
        `walk ${String(cost.walkPages).padStart(3)} pages, per page mean ${cost.walkMean} max ${cost.walkMax}, ` +
        `per object ${cost.walkPerObject}`,
    );
  }
}
const flat = (pick: (cost: PageCost) => number) =>
  listCost.every((size) =>
    size.lists.every((cost) => {
      const smallest = listCost[0]?.lists.find((l) => l.list === cost.list);
      return smallest !== undefined && pick(cost) <= pick(smallest) * 1.1;
    }),
  );
console.log(
  `Target: flat from the smallest to the largest library (within 10%): page 1 ${mark(flat((c) => c.firstPage))}, ` +
    `walk per object ${mark(flat((c) => c.walkPerObject))}`,
);

const CONTENTION = { writers: 20, objects: Number(process.env.BENCH_CONTENTION_OBJECTS ?? 2000) };
const contention = await measureContention(CONTENTION.writers, CONTENTION.objects);
console.log(
  `\n${CONTENTION.writers} writers creating ${CONTENTION.objects} documents in 10 folders of one environment, ` +
    'on the embedded DynamoDB (overlapping transactions cancel one another); each load on a fresh stack, ' +
    'then every folder walked',
);
for (const code of ['current', 'before'] as const) {
  const [one, many] = contention.filter((r) => r.code === code);
  if (!one || !many) continue;
  console.log(`  ${code === 'current' ? 'this code' : `before issue 10 (${BEFORE_REF.slice(0, 7)})`}`);
  for (const run of [one, many]) {
    console.log(
      `    ${String(run.writers).padStart(2)} writer(s): ${run.createsPerSecond} creates/s, statuses ${JSON.stringify(run.statuses)}, ` +
        `5xx ${run.serverErrors}, missing ${run.missing}, listed twice ${run.duplicated}, ` +
        `unacknowledged ${run.unacknowledged}, totals ${run.totalsExact ? 'exact' : 'WRONG'}`,
    );
  }
  console.log(
    `    throughput ratio ${many.writers} writers / 1 writer: ${(many.createsPerSecond / one.createsPerSecond).toFixed(2)}`,
  );
}
const current = contention.filter((r) => r.code === 'current');
console.log(
  `Target: no 5xx, every create listed once, exact totals: ${mark(
    current.every(
      (r) => r.serverErrors === 0 && !r.missing && !r.duplicated && !r.unacknowledged && r.totalsExact,
    ),
  )}`,
);

mkdirSync('bench-results', { recursive: true });
writeFileSync(
  'bench-results/latest.json',
  JSON.stringify(
    {
      at: new Date().toISOString(),
      bundles,
      capacity,
      profile,
      loginCost,
      feedCost,
      webhookDelay,
      processCost,
      uploadCost,
      listCost,
      contention,
    },
    null,
    2,
  ),
);
console.log('\nWritten to bench-results/latest.json');
