#!/bin/bash
# A reload soak and its control, one after the other under one hold of the shared lock: the same
# gateway, load, duration and intervals, with a supergraph swap every 15 s (or as given) after the warm-up and
# without. Raw output (log, results.json, summary.md) into bench/results/soak-reload/.
# Ports 5100–5104, away from the defaults another run may hold.
#   flock /tmp/gwprof-heavy.lock bash bench/scripts/soak-reload.sh hive 60     # gateway, rate (req/s)[, duration[, period[, reload: no control]]]
set -u
GW=$1; RATE=$2; DUR=${3:-3m}; EVERY=${4:-15s}; WHICH=${5:-both}
ROOT=$(cd "$(dirname "$0")/../.." && pwd); OUT=$ROOT/bench/results/soak-reload; RUNS=/tmp/gwprof-soak-reload
mkdir -p "$OUT" "$RUNS"
COMMON=(--gateway "$GW" --gateway-port 5100 --subgraph-ports 5101,5102,5103,5104 --rate "$RATE" -d "$DUR" --interval 30s --calm 3s --warmup 30s --snapshot-every 0 --sites never --no-color --out "$RUNS")
run() { # name, extra flags…
  local name=$1; shift
  rm -rf "${RUNS:?}/$name"
  { echo "\$ gwprof soak ${COMMON[*]} --run-id $name $*"; echo "# started $(date -u +%FT%TZ)"; } > "$OUT/$name.log"
  node "$ROOT/packages/cli/dist/bin.js" soak "${COMMON[@]}" --run-id "$name" "$@" >> "$OUT/$name.log" 2>&1
  echo "# exit $? at $(date -u +%FT%TZ)" >> "$OUT/$name.log"
  cp "$RUNS/$name/results.json" "$OUT/$name-results.json"; cp "$RUNS/$name/summary.md" "$OUT/$name-summary.md"
}
run "$GW-reload-$EVERY" --reload-every "$EVERY" --reload-window 5s
[ "$WHICH" = reload ] || run "$GW-none"
