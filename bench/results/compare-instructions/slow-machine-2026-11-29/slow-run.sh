#!/bin/bash
# Usage: slow-run.sh <gateway> <outdir>: an A/A by instructions with a busy loop on each core for the whole run.
set -u
gw=$1; out=$2
mkdir -p "$out"
cd "$(git rev-parse --show-toplevel)"
nice -n 0 taskset -c 0 node -e 'for(;;){}' & b0=$!
nice -n 0 taskset -c 1 node -e 'for(;;){}' & b1=$!
echo "busy loops: pids $b0 $b1 on cores 0 and 1; start $(date -u +%FT%TZ); commit $(git rev-parse --short HEAD)" | tee "$out/terminal.log"
start=$(date +%s)
node packages/cli/dist/bin.js compare --measure instructions --baseline "$gw" --candidate "$gw" --budget 10 --no-profile \
  --out /tmp/slow-machine-runs --run-id "slow-$gw" --markdown "$out/comment.md" --json "$out/compare.json" --no-color 2>&1 | tr '\r' '\n' | tee -a "$out/terminal.log"
rc=${PIPESTATUS[0]}
kill $b0 $b1
echo "exit $rc; $(( $(date +%s) - start )) s in all; end $(date -u +%FT%TZ)" | tee -a "$out/terminal.log"
