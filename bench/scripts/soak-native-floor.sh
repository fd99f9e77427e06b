#!/bin/bash
# The small-leak floor of a native soak: the compiled stub gateway soaked with planted leaks of decreasing
# size per request (STUB_LEAK_BYTES=1024, one block every STUB_LEAK_EVERY-th request) at the soak's
# default intervals for its duration, side by side, each on its own ports; one line per soak.
# Run under the shared lock: flock /tmp/gwprof-heavy.lock bash bench/scripts/soak-native-floor.sh [duration] [rate] [out]
set -u
REPO=$(cd "$(dirname "$0")/../.." && pwd)
DURATION=${1:-5m}
RATE=${2:-200}
OUT=${3:-/tmp/soak-native-floor}
EVERY=${EVERY:-"8 16 24 32 34 36 48"}
BASE_PORT=${BASE_PORT:-5700}
mkdir -p "$OUT"
cc -O1 -o "$OUT/stub-gateway" "$REPO/fixtures/native-stub/stub-gateway.c"
port=$BASE_PORT
for every in $EVERY; do
  node "$REPO/packages/cli/dist/bin.js" soak --gateway "cmd:$OUT/stub-gateway" \
    --query "$REPO/fixtures/stub.graphql" --expect "$REPO/fixtures/stub.expected.json" \
    --gateway-env STUB_LEAK_BYTES=1024 --gateway-env STUB_LEAK_EVERY=$every --sites never \
    --rate "$RATE" -d "$DURATION" --no-color \
    --gateway-port $port --subgraph-ports $((port + 1)),$((port + 2)),$((port + 3)),$((port + 4)) \
    --out "$OUT" --run-id "every-$every" > "$OUT/every-$every.log" 2>&1 &
  port=$((port + 10))
done
wait
echo "# gwprof soak of the stub gateway, STUB_LEAK_BYTES=1024 every k-th request, -d $DURATION --rate $RATE, default interval/calm/warm-up/threshold, $(date -u +%FT%TZ)"
echo "# k, planted bytes/request (glibc's 1,040-byte chunk for 1,024 bytes, over k), verdict, RssAnon slope bytes/request [90%], calms judged, interval s, warm-up s"
for every in $EVERY; do
  node -e '
    const s = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    const t = s.analysis.trends[0], b = t.bytesPerRequest;
    const f = (x) => (x == null ? "–" : x.toFixed(1));
    console.log([process.argv[2], ((1024 + 16) / Number(process.argv[2])).toFixed(1), s.analysis.verdict, `${f(b.slope)} [${f(b.low)}, ${f(b.high)}]`, t.points, s.config.intervalSec, s.config.warmupSec].join("\t"));
  ' "$OUT/every-$every/results.json" "$every"
done
