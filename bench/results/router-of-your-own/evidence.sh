#!/usr/bin/env bash
# Two builds of a router of one's own compared from the installed package, as docs/your-gateway.md has it.
set -u
cd /tmp/pin-demo/pr
F=node_modules/gwprof/fixtures
export XDG_CACHE_HOME=/tmp/pin-demo/cache
echo "== $(date -u +%FT%TZ) compare, composed at each start (time measure)"
time npx gwprof compare \
  --baseline 'cmd:npx gwprof compose sg-$PORT.graphql && exec ../main/target/release/my-router --supergraph sg-$PORT.graphql' \
  --candidate 'cmd:npx gwprof compose sg-$PORT.graphql && exec ./target/release/my-router --supergraph sg-$PORT.graphql' \
  --query $F/stub.graphql --expect $F/stub.expected.json \
  --window 2 --lead-in 0 -w 1 --windows-per-side 1 --budget 5 --no-color --run-id time
echo "exit $?"
echo "== $(date -u +%FT%TZ) composed ahead while gwprof up serves the subgraphs"
npx gwprof up > up.out 2>&1 &
UP=$!
for i in $(seq 1 60); do grep -q "4004" up.out 2>/dev/null && break; sleep 0.5; done
cat up.out
npx gwprof compose baseline.graphql
npx gwprof compose candidate.graphql --routing-ports 4011,4012,4013,4014
kill -TERM $UP; wait $UP
grep -o '@join__graph(name: "[a-z]*", url: "[^"]*")' baseline.graphql candidate.graphql
echo "== $(date -u +%FT%TZ) compare --measure instructions"
time npx gwprof compare --measure instructions \
  --baseline 'cmd:../main/target/release/my-router --supergraph baseline.graphql' \
  --candidate 'cmd:./target/release/my-router --supergraph candidate.graphql' \
  --query $F/stub.graphql --expect $F/stub.expected.json \
  --no-color --run-id instructions
echo "exit $?"
