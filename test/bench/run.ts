/**
 * `npm run bench`: figures as ratios to a baseline measured in the same run (machines are shared and
 * noisy), plus counts that do not drift (bundle bytes, consumed capacity).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { measureBundles } from './bundles.ts';
import { measureCapacity } from './capacity.ts';

const TARGETS = { bundleBytes: 150 * 1024, importRatio: 1.3, retrieveRcuBeyondSession: 1, updateWcu: 3 };
const mark = (ok: boolean) => (ok ? 'ok  ' : 'MISS');
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

const bundles = await measureBundles();
console.log('\nFunction bundles (minified ESM, AWS SDK included) — import time as a ratio to the baseline');
console.log(
  `  ${'baseline: DynamoDB client only'.padEnd(32)} ${kb(bundles.baseline.bytes).padStart(10)}   1.00`,
);
for (const f of bundles.functions) {
  const overBaseline = f.bytes - bundles.baseline.bytes;
  console.log(
    `  ${f.name.padEnd(32)} ${kb(f.bytes).padStart(10)} (${overBaseline >= 0 ? '+' : ''}${kb(overBaseline)} over baseline) ` +
      `${f.importRatio.toFixed(2)}  size ${mark(f.bytes <= TARGETS.bundleBytes)} import ${mark(f.importRatio <= TARGETS.importRatio)}`,
  );
}

const capacity = await measureCapacity();
const session = capacity.sessionCheck;
console.log('\nDynamoDB consumed capacity per request (table; dynalite meters no GSI writes, see README)');
console.log(
  `  ${'session check (every request)'.padEnd(32)} RCU ${session.readCapacityUnits}  WCU ${session.writeCapacityUnits}`,
);
for (const op of capacity.operations) {
  console.log(`  ${op.operation.padEnd(32)} RCU ${op.readCapacityUnits}  WCU ${op.writeCapacityUnits}`);
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

mkdirSync('bench-results', { recursive: true });
writeFileSync(
  'bench-results/latest.json',
  JSON.stringify({ at: new Date().toISOString(), bundles, capacity }, null, 2),
);
console.log('\nWritten to bench-results/latest.json');
