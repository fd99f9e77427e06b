#!/usr/bin/env bash
# Part 2: composed ahead while gwprof up serves the subgraphs, then --measure instructions.
set -u
cd /tmp/pin-demo/pr
F=node_modules/gwprof/fixtures
export XDG_CACHE_HOME=/tmp/pin-demo/cache
echo "== $(date -u +%FT%TZ) composed ahead while gwprof up serves the subgraphs"
# What Ctrl-C does in a terminal: gwprof up itself gets the signal (npx between would exit before it has stopped its services).
./node_modules/.bin/gwprof up > up.out 2>&1 &
UP=$!
for i in $(seq 1 120); do grep -q "Ctrl-C" up.out 2>/dev/null && break; sleep 0.5; done
cat up.out
npx gwprof compose baseline.graphql
npx gwprof compose candidate.graphql --routing-ports 4011,4012,4013,4014
kill -INT $UP; wait $UP
tail -1 up.out
grep -o '@join__graph(name: "[a-z]*", url: "[^"]*")' baseline.graphql candidate.graphql
echo "== $(date -u +%FT%TZ) compare --measure instructions"
time npx gwprof compare --measure instructions \
  --baseline 'cmd:../main/target/release/my-router --supergraph baseline.graphql' \
  --candidate 'cmd:./target/release/my-router --supergraph candidate.graphql' \
  --query $F/stub.graphql --expect $F/stub.expected.json \
  --no-color --run-id instructions
echo "exit $?"
