#!/bin/bash
# Requests per CPU-second of one subgraph (reviews) under wrk: the subgraph pinned to core 1, wrk to
# core 0, CPU time from /proc/<pid>/stat (utime+stime, all threads) before and after each run.
# usage (from the repository root, under the heavy lock):
#   flock /tmp/gwprof-heavy.lock bench/results/native-subgraphs/measure.sh NATIVE_BINARY [SECONDS] [CONNECTIONS] [ROUNDS]
set -euo pipefail
binary=$1; seconds=${2:-20}; connections=${3:-10}; rounds=${4:-2}
here=$(cd "$(dirname "$0")" && pwd)
port=4791
tick=$(getconf CLK_TCK)
cpu_ticks() { awk '{print $14 + $15}' /proc/$1/stat; }
requests_on() { curl -s http://127.0.0.1:$port/__gwprof/stats | sed 's/.*"requests":\([0-9]*\).*/\1/'; }
run_one() {
  local label=$1; shift
  PORT=$port taskset -c 1 "$@" > /dev/null &
  local pid=$!
  for _ in $(seq 100); do curl -sf http://127.0.0.1:$port/health > /dev/null && break; sleep 0.1; done
  # Warm-up: 5 s of the same load, not counted (V8 compiles, caches fill).
  taskset -c 0 wrk -t1 -c"$connections" -d5s -s "$here/entities.lua" http://127.0.0.1:$port/graphql > /dev/null
  local ticks0 req0; ticks0=$(cpu_ticks $pid); req0=$(requests_on)
  local out; out=$(taskset -c 0 wrk -t1 -c"$connections" -d"${seconds}s" --latency -s "$here/entities.lua" http://127.0.0.1:$port/graphql)
  local ticks1 req1; ticks1=$(cpu_ticks $pid); req1=$(requests_on)
  kill $pid; wait $pid 2> /dev/null || true
  local served=$((req1 - req0)) cpu; cpu=$(echo "scale=3; ($ticks1 - $ticks0) / $tick" | bc)
  echo "=== $label: wrk -t1 -c$connections -d${seconds}s, subgraph on core 1 ($(date -u +%FT%TZ))"
  echo "$out"
  echo "subgraph requests served in the window (its /__gwprof/stats): $served"
  echo "subgraph CPU in the window (/proc utime+stime): ${cpu} s"
  echo "requests per CPU-second: $(echo "scale=0; $served / $cpu" | bc)"
  echo "CPU per request: $(echo "scale=1; $cpu * 1000000 / $served" | bc) us"
  echo
}
for round in $(seq "$rounds"); do
  run_one "node reviews (round $round)" node subgraphs/reviews/dist/main.js
  run_one "native reviews (round $round)" "$binary" reviews
done
