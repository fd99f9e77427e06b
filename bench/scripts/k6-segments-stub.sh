#!/bin/bash
# One k6 against two execution segments at 100 req/s on the stub gateway (1 ms service time), pairs alternating.
set -u
cd /tmp && rm -rf /tmp/segstub && mkdir -p /tmp/segstub && cd /tmp/segstub
G=/work/main; K6=$G/.tools/bin/k6; CLI="node $G/packages/cli/dist/bin.js"
$CLI export k6 -o one -r 100 -d 20s --query $G/fixtures/stub.graphql --expect $G/fixtures/stub.expected.json >/dev/null
$CLI up --gateway "cmd:node $G/fixtures/stub-gateway.mjs" --gateway-env STUB_SERVICE_MS=1 --out /tmp/segstub/up > up.log 2>&1 &
UP=$!
for i in $(seq 60); do grep -q "measure it" up.log && break; sleep 1; done
A="run --quiet --summary-mode=disabled --no-usage-report --address="
one() { taskset -c 0 $K6 $A --out json=a$1.json one/gwprof-k6.js; }
two() { taskset -c 0 $K6 $A --execution-segment 0:1/2 --execution-segment-sequence 0,1/2,1 --out json=c$1-0.json one/gwprof-k6.js & H=$!; taskset -c 0 $K6 $A --execution-segment 1/2:1 --execution-segment-sequence 0,1/2,1 --out json=c$1-1.json one/gwprof-k6.js; wait $H; }
one 0
for r in 1 2 3 4 5; do if [ $((r%2)) = 1 ]; then one $r; two $r; else two $r; one $r; fi; done
kill -INT $UP; wait $UP
echo "# k6: one process against two execution segments at 100 req/s on the stub gateway (STUB_SERVICE_MS=1) under gwprof up, 20 s runs, --skip 2, pairs alternating, $(date -u +%F)"
echo "# script: bench/scripts/k6-segments-stub.sh; columns: req/s status sent/s ok/s dropped success% mean p50 p80 p95 p99 max (ms)"
for r in 1 2 3 4 5; do for f in "a$r.json" "c$r-0.json c$r-1.json"; do echo "round $r $f: $($CLI import k6 $f --skip 2 --out /tmp/segstub/imp --no-color 2>/dev/null | sed -n 4p | cut -c1-95)"; done; done
