#!/bin/bash
# User and system CPU of the reviews subgraph, native then Node, under the same wrk load as measure.sh;
# perf samples the native one. usage: flock /tmp/gwprof-heavy.lock bench/results/native-subgraphs/perf-split.sh BINARY
cd /work/main
B=$1; port=4791
R=bench/results/native-subgraphs
for kind in native node; do
  if [ $kind = native ]; then PORT=$port taskset -c 1 $B reviews > /dev/null & else PORT=$port taskset -c 1 node subgraphs/reviews/dist/main.js > /dev/null & fi
  pid=$!
  sleep 1
  taskset -c 0 wrk -t1 -c10 -d5s -s $R/entities.lua http://127.0.0.1:$port/graphql > /dev/null
  a=$(awk '{print $14, $15}' /proc/$pid/stat)
  (taskset -c 0 wrk -t1 -c10 -d12s -s $R/entities.lua http://127.0.0.1:$port/graphql > /tmp/perf-wrk-$kind.txt) &
  w=$!
  sleep 1
  if [ $kind = native ]; then perf record -F 999 -g -p $pid -o /tmp/perf-$kind.data -- sleep 8 2> /dev/null; fi
  wait $w
  b=$(awk '{print $14, $15}' /proc/$pid/stat)
  echo "$kind utime,stime ticks before: $a after: $b"
  kill $pid; wait $pid 2>/dev/null
done
