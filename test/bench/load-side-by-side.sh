#!/usr/bin/env bash
# Load bench side by side: test/bench/load-mix.mjs (autocannon, DURATION seconds at CONNECTIONS connections,
# 70% get by id / 10% list page of 50 / 20% create) against this project on the embedded stack (started by
# the peer bench's with-server.sh: `npm start` on a free port with a fresh data folder), Directus 11 and
# Strapi 5 (installed under $PEERDIR, default /tmp/peer-check, by the peer bench's setup.sh and started as its
# side-by-side.sh starts them). Rounds alternate ours/directus/strapi to spread machine drift.
# Run from anywhere, after `npm ci`:
#   bash test/bench/load-side-by-side.sh [ROUNDS]      (default 1; the first run installs the peers: ~8 min)
# Env: DURATION (default 20), CONNECTIONS (default 20), SEED, PAGE_SIZE, WARMUP as load-mix.mjs reads them;
#      PEER_BENCH (default ../shared/peer-bench beside the project), PEERDIR.
# Prints per system the median over rounds of req/s, p50 and p99 latency, the errors, non-2xx answers,
# mismatched answers and missing writes summed over rounds, and ours/best-peer req/s.
# Exits 1 when any system had an error, a non-2xx answer, a mismatch or a missing write (or gave no result).
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
H=${PEER_BENCH:-$(cd "$ROOT/../shared/peer-bench" 2>/dev/null && pwd)}
P=${PEERDIR:-/tmp/peer-check}
ROUNDS=${1:-1}
MIX="$ROOT/test/bench/load-mix.mjs"
[ -n "$H" ] && [ -x "$H/with-server.sh" ] || { echo "peer bench not found (set PEER_BENCH)"; exit 1; }
"$H/setup.sh" >/dev/null || { echo "peer setup failed"; exit 1; }
"$P/directus/start.sh" >/dev/null; "$P/strapi/start.sh" >/dev/null
trap '"$P/stop.sh" >/dev/null' EXIT
out=$(mktemp -d)
cd "$ROOT" || exit 1
for r in $(seq 1 "$ROUNDS"); do
  echo "round $r/$ROUNDS: ours" >&2
  "$H/with-server.sh" bash -c "PEER=ours EMAIL=\$ADMIN_USERNAME PASSWORD=\$ADMIN_PASSWORD JSON=1 CLEANUP=0 node '$MIX'" > "$out/ours-$r.txt" 2>&1
  echo "round $r/$ROUNDS: directus" >&2
  PEER=directus JSON=1 node "$MIX" > "$out/directus-$r.txt" 2>&1
  echo "round $r/$ROUNDS: strapi" >&2
  PEER=strapi PASSWORD=PeerCheck-admin-pw1 JSON=1 node "$MIX" > "$out/strapi-$r.txt" 2>&1
done
echo "raw results: $out"
node -e '
const fs = require("fs"), d = process.argv[1];
const by = {}; let bad = false;
for (const f of fs.readdirSync(d).sort()) {
  const peer = f.split("-")[0], text = fs.readFileSync(d + "/" + f, "utf8");
  const line = text.split("\n").find((l) => l.startsWith("{\"peer\""));
  if (!line) { bad = true; console.log(`no result from ${f}: ` + text.split("\n").slice(-5).join(" | ")); continue; }
  const j = JSON.parse(line);
  (by[peer] ??= []).push(j);
  const failures = j.errors + j.non2xx + j.mismatches + j.writesMissing;
  if (failures > 0) {
    bad = true;
    console.log(`${f}: errors ${j.errors} (timeouts ${j.timeouts}) non-2xx ${j.non2xx} mismatches ${j.mismatches} missing writes ${j.writesMissing}`);
    console.log(`  statuses by operation: ` + Object.entries(j.byOp).map(([op, s]) => `${op} ${JSON.stringify(s.statuses)}`).join(", "));
    for (const [k, n] of Object.entries(j.errorsByOp)) console.log(`  ${k} x${n}`);
    for (const p of j.problems) console.log(`  ${p.op} -> ${p.status} ${p.what}: ${p.body}`);
    for (const m of j.missingSamples) console.log(`  missing ${m.id} (${m.name}) -> ${m.status}: ${m.body}`);
  }
}
const med = (a) => { if (!a || !a.length) return NaN; const s = [...a].sort((x, y) => x - y); return s[Math.floor(s.length / 2)]; };
const sum = (a, k) => (a ?? []).reduce((s, j) => s + j[k], 0);
const rps = (p) => med(by[p]?.map((j) => j.rps));
const best = Math.max(...["directus", "strapi"].map(rps).filter((x) => !isNaN(x)));
const first = Object.values(by)[0]?.[0];
console.log(`load mix get70/list10/create20, ${first?.connections} connections, ${first?.duration}s per run, median of ${Math.max(0, ...Object.values(by).map((a) => a.length))} round(s)`);
console.log("system      req/s   p50(ms)  p99(ms)  errors  non-2xx  mismatch  writes-acked  writes-missing  vs-best-peer");
for (const p of ["ours", "directus", "strapi"]) {
  const a = by[p]; const x = rps(p);
  console.log(`${p.padEnd(9)} ${x.toFixed(1).padStart(7)} ${String(med(a?.map((j) => j.latency.p50))).padStart(8)} ${String(med(a?.map((j) => j.latency.p99))).padStart(8)}` +
    ` ${String(sum(a, "errors")).padStart(7)} ${String(sum(a, "non2xx")).padStart(8)} ${String(sum(a, "mismatches")).padStart(9)}` +
    ` ${String(sum(a, "writesAcknowledged")).padStart(13)} ${String(sum(a, "writesMissing")).padStart(15)}   ${(x / best).toFixed(2)}`);
}
console.log(`ours/best-peer req/s: ${(rps("ours") / best).toFixed(2)}` + (bad ? "  (FAILED: errors, non-2xx answers, mismatches or missing writes above)" : ""));
process.exit(bad ? 1 : 0);' "$out"
