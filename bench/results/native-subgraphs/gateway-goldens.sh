#!/bin/bash
# A Node gateway over the four native (or Node) subgraphs, behind a recording proxy, checked against
# gwprof's goldens (TestQuery and all 2,000 UserReviews) with scripts/make-goldens.mjs --check.
# usage (from the repository root, under the heavy lock):
#   flock /tmp/gwprof-heavy.lock bench/results/native-subgraphs/gateway-goldens.sh apollo|hive native|node NATIVE_BINARY RECORDING.jsonl
set -u
gateway=$1; kind=$2; binary=$3; out=$4
here=$(cd "$(dirname "$0")" && pwd)
rm -f "$out"
pids=()
names=(accounts reviews products inventory)
for i in 0 1 2 3; do
  if [ "$kind" = node ]; then PORT=$((4721 + i)) node subgraphs/${names[$i]}/dist/main.js > /dev/null &
  else PORT=$((4721 + i)) "$binary" ${names[$i]} > /dev/null & fi
  pids+=($!)
done
PROXY_PORTS=4731,4732,4733,4734 TARGET_PORTS=4721,4722,4723,4724 OUT=$out node "$here/record-proxy.mjs" > /dev/null & pids+=($!)
sleep 2
export SUBGRAPH_ACCOUNTS_URL=http://127.0.0.1:4731/graphql SUBGRAPH_REVIEWS_URL=http://127.0.0.1:4732/graphql
export SUBGRAPH_PRODUCTS_URL=http://127.0.0.1:4733/graphql SUBGRAPH_INVENTORY_URL=http://127.0.0.1:4734/graphql
if [ "$gateway" = apollo ]; then
  PORT=4730 node gateways/apollo/server.js > /dev/null & pids+=($!)
  url=http://127.0.0.1:4730/
else
  supergraph=$(mktemp --suffix=.graphql)
  (cd gateways/hive && node node_modules/@graphql-mesh/compose-cli/esm/bin.js --config-path mesh.config.mjs --output "$supergraph" > /dev/null)
  (cd gateways/hive && exec node node_modules/@graphql-hive/gateway/dist/bin.js supergraph "$supergraph" --config-path gateway.config.mjs --port 4730 --host 127.0.0.1 --fork 0 > /dev/null) &
  pids+=($!)
  url=http://127.0.0.1:4730/graphql
fi
for _ in $(seq 60); do curl -sf -XPOST "$url" -H 'content-type: application/json' -d '{"query":"{__typename}"}' > /dev/null && break; sleep 1; done
echo "== $gateway gateway over the $kind subgraphs ($(date -u +%FT%TZ))"
node scripts/make-goldens.mjs "$url" --check; rc=$?
kill "${pids[@]}"
echo "subgraph requests recorded: $(wc -l < "$out")"
exit $rc
