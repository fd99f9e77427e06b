#!/bin/bash
# Which of the counting V8 flags are needed: legacy Mesh A/A under callgrind with the whole set and
# with each flag left out, 3 batches a side per pair of processes.
cd /work/main
OUT=bench/results/compare-instructions/v8-flags
FULL="--no-opt --predictable --predictable-gc-schedule --hash-seed=1 --random-seed=1 --no-concurrent-sweeping --expose-gc"
variants=("full" "--predictable" "--predictable-gc-schedule" "--hash-seed=1" "--random-seed=1" "--no-concurrent-sweeping" "--no-opt")
for v in "${variants[@]}"; do
  if [ "$v" = full ]; then flags="$FULL"; name=full; else flags=$(echo " $FULL " | sed "s/ $v / /" | xargs); name="without${v#--}"; fi
  echo "$(date -u +%FT%TZ) $name: $flags" >> $OUT/study.log
  node packages/cli/dist/bin.js compare --measure instructions --baseline mesh --candidate mesh \
    --counting-v8-flags "$flags" --batches-per-epoch 3 --min-epochs 3 --budget 12 --no-profile --threshold 1 \
    --gateway-port 4840 --subgraph-ports 4841,4842,4843,4844 --candidate-port 4845 --candidate-subgraph-ports 4851,4852,4853,4854 \
    --out /tmp/flag-study --run-id "$name" --json "$OUT/$name.json" > "$OUT/$name.txt" 2>&1
  echo "$(date -u +%FT%TZ) $name: exit $?" >> $OUT/study.log
done
node bench/dist/instructions.js noise $OUT/*.json > $OUT/noise.md 2>> $OUT/study.log
