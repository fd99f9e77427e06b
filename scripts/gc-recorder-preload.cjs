// Experiment preload (issue 10): records, inside a gateway, Node's own GC entries and the CPU time
// of each thread, with timestamps on the clock of V8's CPU profiles (CLOCK_MONOTONIC, µs), so a
// step's profile can be set beside them. Not part of gwprof; see scripts/gc-ground-truth-report.mjs.
//
//   GWPROF_GC_RECORD_DIR=/tmp/gc-record node packages/cli/dist/bin.js sweep \
//     --gateway-env NODE_OPTIONS=--require=/work/main/scripts/gc-recorder-preload.cjs …
//
// Writes <dir>/gc-<pid>.jsonl: {"gc": {startUs, durationUs, kind}} and, every 250 ms,
// {"threads": {tUs, cpuMsByTid, nameByTid}}.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { PerformanceObserver, performance } = require('node:perf_hooks');
const { isMainThread } = require('node:worker_threads');

const dir = process.env.GWPROF_GC_RECORD_DIR;
if (dir && isMainThread) {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `gc-${process.pid}.jsonl`);
  const originUs = Number(process.hrtime.bigint() / 1000n) - performance.now() * 1000;
  let lines = [];
  const flush = () => {
    if (lines.length === 0) return;
    fs.appendFileSync(file, lines.join('\n') + '\n');
    lines = [];
  };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      lines.push(JSON.stringify({ gc: { startUs: originUs + entry.startTime * 1000, durationUs: entry.duration * 1000, kind: entry.detail?.kind ?? entry.kind } }));
    }
  }).observe({ entryTypes: ['gc'] });
  const threads = () => {
    const cpuMsByTid = {};
    const nameByTid = {};
    for (const tid of fs.readdirSync('/proc/self/task')) {
      try {
        const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        cpuMsByTid[tid] = (Number(fields[11]) + Number(fields[12])) * 10; // utime + stime, 10 ms ticks
        nameByTid[tid] = fs.readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim();
      } catch {
        // the thread ended
      }
    }
    lines.push(JSON.stringify({ threads: { tUs: Number(process.hrtime.bigint() / 1000n), cpuMsByTid, nameByTid } }));
  };
  setInterval(threads, 250).unref();
  setInterval(flush, 1000).unref();
  process.on('exit', () => {
    threads();
    flush();
  });
}
